import { describe, expect, it } from "vitest";
import "../i18n";
import { searchNote } from "./searchNote";

describe("searchNote", () => {
  it("words the fields instead of the server's note, which names them", () => {
    const note = searchNote({ note: "files in more_hits_in have more matches than shown; 2 file(s) are pending", more_hits_in: ["a", "b"], pending_files: 1 });
    expect(note).toBe("1 file is still having its text extracted and was not searched yet. 2 files have more matches than shown: search one of them alone to see them all.");
    expect(note).not.toContain("more_hits_in");
  });
  it("keeps the server's note for what no field carries, and says nothing when there is nothing", () => {
    expect(searchNote({ note: "the word index is being rebuilt" })).toBe("the word index is being rebuilt");
    expect(searchNote({})).toBeUndefined();
  });
});
