package store

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// AdminModel is a model added in the admin screens. APIKeySealed is the
// key sealed by the caller (the store never sees it in the clear); empty
// means the model has no key.
type AdminModel struct {
	ID            string `gorm:"primaryKey"`
	Kind          string
	Name          string
	Profile       string
	BaseURL       string
	Upstream      string
	ContextWindow int
	OutputReserve int
	MaxOutput     int
	NativeTools   bool
	Reasoning     bool
	PriceInput    float64
	PriceOutput   float64
	Disabled      bool
	APIKeySealed  string
	APIKeyLast4   string `gorm:"column:api_key_last4"`
	// Dimensions and BatchSize are an embedding model's (0: defaults).
	Dimensions int
	BatchSize  int
	// AllowedUsers and AllowedGroups are who may use the model; both
	// empty means everyone.
	AllowedUsers  []int64 `gorm:"serializer:json"`
	AllowedGroups []int64 `gorm:"serializer:json"`
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// adminModelsVersion is the change counter of admin_models.
type adminModelsVersion struct {
	ID             int64 `gorm:"primaryKey"`
	Version        int64
	EmbeddingInUse string
}

func (adminModelsVersion) TableName() string { return "admin_models_version" }

// AdminModels lists the admin's models, oldest first.
func (s *Store) AdminModels(ctx context.Context) ([]AdminModel, error) {
	var ms []AdminModel
	err := s.db.WithContext(ctx).Order("created_at, id").Find(&ms).Error
	return ms, translate(err)
}

// AdminModel finds one; ErrNotFound when absent.
func (s *Store) AdminModel(ctx context.Context, id string) (AdminModel, error) {
	var m AdminModel
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&m).Error
	return m, translate(err)
}

// AdminModelsVersion is the change counter: it grows with every write to
// the admin's models, so a replica that saw the same number has them all.
func (s *Store) AdminModelsVersion(ctx context.Context) (int64, error) {
	var v adminModelsVersion
	err := s.db.WithContext(ctx).Where("id = 1").Take(&v).Error
	return v.Version, translate(err)
}

// EmbeddingInUse is the id of the embedding model the admin put in use;
// "" when none was chosen.
func (s *Store) EmbeddingInUse(ctx context.Context) (string, error) {
	var v adminModelsVersion
	err := s.db.WithContext(ctx).Where("id = 1").Take(&v).Error
	return v.EmbeddingInUse, translate(err)
}

// SetEmbeddingInUse records the embedding model in use, as a change of
// the models every replica takes up.
func (s *Store) SetEmbeddingInUse(ctx context.Context, id string) error {
	return s.changeAdminModels(ctx, func(db *gorm.DB) error {
		return db.Model(&adminModelsVersion{}).Where("id = 1").Update("embedding_in_use", id).Error
	})
}

// CreateAdminModel inserts m; ErrConflict when the id is taken.
func (s *Store) CreateAdminModel(ctx context.Context, m *AdminModel) error {
	m.CreatedAt = now()
	m.UpdatedAt = m.CreatedAt
	m.listsNotNull()
	return s.changeAdminModels(ctx, func(db *gorm.DB) error { return db.Create(m).Error })
}

// SaveAdminModel writes every field of an existing model; ErrNotFound when
// it was deleted meanwhile.
func (s *Store) SaveAdminModel(ctx context.Context, m *AdminModel) error {
	m.UpdatedAt = now()
	m.listsNotNull()
	return s.changeAdminModels(ctx, func(db *gorm.DB) error {
		res := db.Model(&AdminModel{}).Where("id = ?", m.ID).Select("*").Omit("id", "created_at").Updates(m)
		if res.Error == nil && res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		return res.Error
	})
}

// DeleteAdminModel removes a model; ErrNotFound when absent.
func (s *Store) DeleteAdminModel(ctx context.Context, id string) error {
	return s.changeAdminModels(ctx, func(db *gorm.DB) error {
		res := db.Where("id = ?", id).Delete(&AdminModel{})
		if res.Error == nil && res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		return res.Error
	})
}

// ResealAdminModelKeys replaces every stored key by reseal's answer, in
// one transaction: a failure leaves every key as it was.
func (s *Store) ResealAdminModelKeys(ctx context.Context, reseal func(m AdminModel) (string, error)) (int, error) {
	n := 0
	err := s.changeAdminModels(ctx, func(db *gorm.DB) error {
		n = 0
		var ms []AdminModel
		if err := db.Where("api_key_sealed <> ''").Order("id").Find(&ms).Error; err != nil {
			return err
		}
		for _, m := range ms {
			sealed, err := reseal(m)
			if err != nil {
				return err
			}
			if err := db.Model(&AdminModel{}).Where("id = ?", m.ID).Update("api_key_sealed", sealed).Error; err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// listsNotNull stores an empty list as [], not NULL.
func (m *AdminModel) listsNotNull() {
	if m.AllowedUsers == nil {
		m.AllowedUsers = []int64{}
	}
	if m.AllowedGroups == nil {
		m.AllowedGroups = []int64{}
	}
}

// changeAdminModels runs write and bumps the change counter in one
// transaction, so a replica never sees the new counter without the change.
func (s *Store) changeAdminModels(ctx context.Context, write func(db *gorm.DB) error) error {
	return s.InTx(ctx, func(tx *Store) error {
		db := tx.db.WithContext(ctx)
		if err := write(db); err != nil {
			return translate(err)
		}
		return translate(db.Model(&adminModelsVersion{}).Where("id = 1").
			Update("version", gorm.Expr("version + 1")).Error)
	})
}
