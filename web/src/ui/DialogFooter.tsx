// The end of a dialog that acts in place: the last error (an alert), the
// last confirmation (a polite status, hidden while empty) and its close button.

export function DialogFooter(props: { error: string | null; notice: string | null; closeLabel: string; onClose: () => void }) {
  return (
    <>
      {props.error && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
      <p className="muted small share-notice" role="status">
        {props.notice}
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          {props.closeLabel}
        </button>
      </div>
    </>
  );
}
