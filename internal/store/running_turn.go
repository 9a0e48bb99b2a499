package store

import (
	"context"
	"strconv"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// RunningTurn is a stored turn while it runs, on the replica that runs it.
// Times are unix milliseconds.
type RunningTurn struct {
	MessageID      int64 `gorm:"primaryKey;autoIncrement:false"`
	UserID         int64
	ConversationID int64
	Replica        string
	Detached       bool
	Beat           int64
	Watched        int64
	StopRequested  bool
	Ended          int64
}

// TurnEvent is one event of a detached turn, Data its JSON.
type TurnEvent struct {
	MessageID int64 `gorm:"primaryKey;autoIncrement:false"`
	ID        int   `gorm:"primaryKey;autoIncrement:false"`
	Name      string
	Data      string
}

// Channels the replicas NOTIFY on (PostgreSQL); the payload is a message
// id. A notification is only a hint to read the tables now: they are
// database-wide, so another schema's ids wake a reader for nothing.
const (
	ChannelTurnEvents = "knowspace_turn_events"
	ChannelTurnStop   = "knowspace_turn_stop"
)

// Millis is t as the tables keep it.
func Millis(t time.Time) int64 { return t.UnixMilli() }

// BeginRunningTurn records a turn this replica starts.
func (s *Store) BeginRunningTurn(ctx context.Context, t RunningTurn) error {
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(&t).Error)
}

// EndRunningTurn records that the turn ended; its row and events stay until
// SweepRunningTurns drops them.
func (s *Store) EndRunningTurn(ctx context.Context, messageID int64) error {
	return translate(s.db.WithContext(ctx).Model(&RunningTurn{}).Where("message_id = ?", messageID).
		Update("ended", Millis(time.Now())).Error)
}

// RunningTurnOf is the turn writing (or lately written) the message.
func (s *Store) RunningTurnOf(ctx context.Context, messageID int64) (RunningTurn, error) {
	var t RunningTurn
	err := s.db.WithContext(ctx).Where("message_id = ?", messageID).Take(&t).Error
	return t, translate(err)
}

// AppendTurnEvents writes a batch of a turn's events in one statement and,
// on PostgreSQL, tells the other replicas in the same transaction.
func (s *Store) AppendTurnEvents(ctx context.Context, evs []TurnEvent) error {
	if len(evs) == 0 {
		return nil
	}
	return translate(s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.CreateInBatches(evs, 500).Error; err != nil {
			return err
		}
		return s.notify(tx, ChannelTurnEvents, evs[0].MessageID)
	}))
}

// TurnEventsAfter is up to limit events of the turn after id after, in order.
func (s *Store) TurnEventsAfter(ctx context.Context, messageID int64, after, limit int) ([]TurnEvent, error) {
	var out []TurnEvent
	err := s.db.WithContext(ctx).Where("message_id = ? AND id > ?", messageID, after).
		Order("id").Limit(limit).Find(&out).Error
	return out, translate(err)
}

// BeatRunningTurns renews the lease of this replica's running turns and
// returns those whose Stop was asked on another replica.
func (s *Store) BeatRunningTurns(ctx context.Context, replica string) ([]int64, error) {
	db := s.db.WithContext(ctx)
	if err := db.Model(&RunningTurn{}).Where("replica = ? AND ended = 0", replica).
		Update("beat", Millis(time.Now())).Error; err != nil {
		return nil, translate(err)
	}
	return s.StopsRequested(ctx, replica)
}

// StopsRequested is the running turns of the replica another replica asked
// to stop.
func (s *Store) StopsRequested(ctx context.Context, replica string) ([]int64, error) {
	var ids []int64
	err := s.db.WithContext(ctx).Model(&RunningTurn{}).Where("replica = ? AND ended = 0 AND stop_requested = ?", replica, true).
		Pluck("message_id", &ids).Error
	return ids, translate(err)
}

// RequestTurnStop asks the replica running the turn to stop it.
func (s *Store) RequestTurnStop(ctx context.Context, messageID int64) error {
	return translate(s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&RunningTurn{}).Where("message_id = ?", messageID).Update("stop_requested", true).Error; err != nil {
			return err
		}
		return s.notify(tx, ChannelTurnStop, messageID)
	}))
}

// WatchRunningTurn records that a client follows the turn now.
func (s *Store) WatchRunningTurn(ctx context.Context, messageID int64) error {
	return translate(s.db.WithContext(ctx).Model(&RunningTurn{}).Where("message_id = ?", messageID).
		Update("watched", Millis(time.Now())).Error)
}

// CountRunningTurns is the user's turns running on replicas other than
// except whose lease holds.
func (s *Store) CountRunningTurns(ctx context.Context, userID int64, except string, liveSince time.Time) (int, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&RunningTurn{}).
		Where("user_id = ? AND ended = 0 AND replica <> ? AND beat >= ?", userID, except, Millis(liveSince)).Count(&n).Error
	return int(n), translate(err)
}

// InterruptStreaming marks the messages still streaming whose turn runs on
// no live replica as failed with code interrupted: those with no running
// turn (left by a server that stopped before turns were recorded), or
// whose turn's replica has not renewed its lease since liveSince. Another
// replica's live turns are left to end on their own.
func (s *Store) InterruptStreaming(ctx context.Context, message string, liveSince time.Time) (int64, error) {
	return s.interrupt(ctx, message, liveSince, func(db *gorm.DB) *gorm.DB {
		live := db.Model(&RunningTurn{}).Select("message_id").Where("ended = 0 AND beat >= ?", Millis(liveSince))
		return db.Model(&ConversationMessage{}).Where("status = ? AND id NOT IN (?)", MessageStreaming, live)
	})
}

// InterruptStale marks the messages still streaming whose turn's replica
// has not renewed its lease since liveSince as failed (interrupted), and
// those turns as ended.
func (s *Store) InterruptStale(ctx context.Context, message string, liveSince time.Time) (int64, error) {
	return s.interrupt(ctx, message, liveSince, func(db *gorm.DB) *gorm.DB {
		stale := db.Model(&RunningTurn{}).Select("message_id").Where("ended = 0 AND beat < ?", Millis(liveSince))
		return db.Model(&ConversationMessage{}).Where("status = ? AND id IN (?)", MessageStreaming, stale)
	})
}

// interrupt marks the messages pick selects as failed (interrupted) and
// ends the turns whose replica stopped renewing its lease before liveSince:
// they ended with the replica that ran them.
func (s *Store) interrupt(ctx context.Context, message string, liveSince time.Time, pick func(*gorm.DB) *gorm.DB) (int64, error) {
	var n int64
	err := s.InTx(ctx, func(tx *Store) error {
		db := tx.db.WithContext(ctx)
		res := pick(db).Updates(map[string]any{"status": MessageFailed, "error_code": "interrupted", "error_message": message, "updated_at": now()})
		if res.Error != nil {
			return res.Error
		}
		n = res.RowsAffected
		return db.Model(&RunningTurn{}).Where("ended = 0 AND beat < ?", Millis(liveSince)).Update("ended", Millis(time.Now())).Error
	})
	return n, translate(err)
}

// DropEndedTurns deletes the rows and events of turns ended before before.
func (s *Store) DropEndedTurns(ctx context.Context, before time.Time) error {
	return translate(s.InTx(ctx, func(tx *Store) error {
		db := tx.db.WithContext(ctx)
		old := db.Model(&RunningTurn{}).Select("message_id").Where("ended > 0 AND ended < ?", Millis(before))
		if err := db.Where("message_id IN (?)", old).Delete(&TurnEvent{}).Error; err != nil {
			return err
		}
		return db.Where("ended > 0 AND ended < ?", Millis(before)).Delete(&RunningTurn{}).Error
	}))
}

func (s *Store) notify(tx *gorm.DB, channel string, messageID int64) error {
	if s.dialect != DialectPostgres {
		return nil
	}
	return tx.Exec("SELECT pg_notify(?, ?)", channel, strconv.FormatInt(messageID, 10)).Error
}
