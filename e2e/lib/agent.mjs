// Helpers for the KnowAgent panel tests (server started with KB_FAKE_LLM=1).

/** the question box */
export function chatBox(page) {
  return page.getByRole("textbox", { name: "Message KnowAgent" });
}

/** every assistant message, oldest first */
export function assistants(page) {
  return page.locator('.msg[data-role="assistant"]');
}

/** every user message, oldest first */
export function users(page) {
  return page.locator('.msg[data-role="user"]');
}

/** the newest assistant message */
export function lastAssistant(page) {
  return assistants(page).last();
}

/** ask types a question and presses Enter. */
export async function ask(page, text) {
  const box = chatBox(page);
  await box.fill(text);
  await box.press("Enter");
}

/** waitStatus polls until a message's data-status is one of the given values and returns it. */
export async function waitStatus(msg, statuses, timeout = 15_000) {
  const want = Array.isArray(statuses) ? statuses : [statuses];
  const deadline = Date.now() + timeout;
  let last = null;
  for (;;) {
    last = await msg.getAttribute("data-status", { timeout: Math.max(1, deadline - Date.now()) });
    if (want.includes(last)) return last;
    if (Date.now() > deadline) throw new Error(`message status stayed ${last}, wanted ${want.join("|")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** answerText is the visible answer text of an assistant message (tool cards and reasoning excluded). */
export async function answerText(msg) {
  const parts = await msg.locator(".answer").allInnerTexts();
  return parts.join("").trim();
}

/** askAndWait sends a question and waits for its answer to end; returns the message locator. */
export async function askAndWait(page, text, statuses = "done") {
  const before = await assistants(page).count();
  await ask(page, text);
  const msg = assistants(page).nth(before);
  await msg.waitFor();
  const status = await waitStatus(msg, statuses);
  return { msg, status };
}

/**
 * recordStreams collects the JSON bodies of every POST to the stream
 * endpoint the page makes, to check history and that commands stay local.
 */
export function recordStreams(page) {
  const bodies = [];
  page.on("request", (req) => {
    // The question itself, not a Stop (…/stream/{id}/stop).
    if (req.method() === "POST" && new URL(req.url()).pathname === "/api/v1/knowledge-agent/stream") {
      bodies.push(JSON.parse(req.postData() ?? "{}"));
    }
  });
  return bodies;
}
