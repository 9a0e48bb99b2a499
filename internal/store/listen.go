package store

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// listenRetry is the pause before Listen connects again after losing its
// connection.
const listenRetry = time.Second

// Listen calls wake with the message id of each notification on channel
// (PostgreSQL LISTEN, on a connection of its own) until ctx ends, and with
// 0 each time it (re)connects: notifications sent while it was away are
// lost, so the caller reads again. On SQLite there is no other process to
// hear from and it returns at once.
func (s *Store) Listen(ctx context.Context, channel string, wake func(messageID int64)) {
	if s.pgConfig == nil {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	for ctx.Err() == nil {
		err := s.listenOnce(ctx, channel, wake)
		if ctx.Err() != nil {
			return
		}
		slog.Warn("database notifications lost; reconnecting", "channel", channel, "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(listenRetry):
		}
	}
}

func (s *Store) listenOnce(ctx context.Context, channel string, wake func(int64)) error {
	conn, err := pgx.ConnectConfig(ctx, s.pgConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return err
	}
	wake(0)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		id, _ := strconv.ParseInt(n.Payload, 10, 64)
		if id > 0 {
			wake(id)
		}
	}
}
