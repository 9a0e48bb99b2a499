import { beforeEach, describe, expect, it } from "vitest";
import { tabbables, trapTab } from "./focusTrap";

function setup(html: string): HTMLElement {
  document.body.innerHTML = `<button id="outside">outside</button><div id="root">${html}</div>`;
  return document.getElementById("root")!;
}

describe("tabbables", () => {
  it("lists enabled, focusable, visible controls in document order", () => {
    const root = setup(`
      <button id="a">a</button>
      <button id="off" disabled>x</button>
      <input id="b" />
      <input type="hidden" />
      <div tabindex="-1">skip</div>
      <div id="c" tabindex="0">c</div>
      <div hidden><button>hidden</button></div>
      <details><summary id="d">more</summary><button>inside closed details</button></details>
      <input type="radio" name="r" id="r1" /><input type="radio" name="r" id="r2" checked />
      <a href="#x" id="e">link</a>`);
    expect(tabbables(root).map((e) => e.id)).toEqual(["a", "b", "c", "d", "r2", "e"]);
  });
});

describe("trapTab", () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = setup(`<button id="first">1</button><button id="mid">2</button><button id="last">3</button>`);
  });
  const byId = (id: string) => document.getElementById(id)!;

  it("wraps from the last control to the first and back with Shift", () => {
    byId("last").focus();
    expect(trapTab(root, false, document.activeElement)).toBe(true);
    expect(document.activeElement?.id).toBe("first");
    expect(trapTab(root, true, document.activeElement)).toBe(true);
    expect(document.activeElement?.id).toBe("last");
  });

  it("leaves a move between inner controls to the browser", () => {
    byId("mid").focus();
    expect(trapTab(root, false, document.activeElement)).toBe(false);
    expect(trapTab(root, true, document.activeElement)).toBe(false);
    expect(document.activeElement?.id).toBe("mid");
  });

  it("pulls focus back inside from outside", () => {
    byId("outside").focus();
    expect(trapTab(root, false, document.activeElement)).toBe(true);
    expect(document.activeElement?.id).toBe("first");
    document.body.focus();
    expect(trapTab(root, true, document.body)).toBe(true);
    expect(document.activeElement?.id).toBe("last");
  });
});
