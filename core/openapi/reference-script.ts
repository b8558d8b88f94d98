// The API reference page's one script, inline and allowed by its hash in the page's Content-Security-Policy: the
// search over the contents, and a copy button on every code block. The page reads whole without it; the search box
// stays hidden and the blocks stay selectable. Plain ES2020, as a browser runs it (it is not compiled).

export const REFERENCE_SCRIPT = `(() => {
  const search = document.getElementById("search");
  const box = document.querySelector(".search");
  const contents = document.querySelector("nav[aria-labelledby=contents]");
  const count = document.getElementById("search-count");
  if (search && box && contents && count) {
    box.hidden = false;
    const entries = [...contents.querySelectorAll("li")];
    const words = (entry) => (entry.dataset.search || "") + " " + (entry.querySelector("a") || entry).textContent;
    const filter = () => {
      const terms = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
      let shown = 0;
      for (const entry of entries) entry.hidden = false;
      if (terms.length > 0) {
        for (const entry of entries.filter((e) => !e.querySelector("li"))) {
          const text = words(entry).toLowerCase();
          entry.hidden = !terms.every((term) => text.includes(term));
          if (!entry.hidden) shown++;
        }
        // A group stays while one of its entries matches, or when its own name does.
        for (const group of entries.filter((e) => e.querySelector("li"))) {
          const own = terms.every((term) => words(group).toLowerCase().includes(term));
          group.hidden = !own && [...group.querySelectorAll("li")].every((e) => e.hidden);
          if (own) for (const entry of group.querySelectorAll("li")) entry.hidden = false;
        }
      }
      count.textContent = terms.length === 0 ? "" : shown === 1 ? "1 match" : shown + " matches";
    };
    search.addEventListener("input", filter);
    // Enter goes to the first match.
    search.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const first = entries.find((e) => !e.hidden && !e.querySelector("li"));
      const link = first && first.querySelector("a");
      if (link) {
        event.preventDefault();
        link.click();
      }
    });
  }

  const copy = async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  };
  for (const block of document.querySelectorAll("pre")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy: " + (block.getAttribute("aria-label") || "code"));
    button.addEventListener("click", async () => {
      const code = block.querySelector("code") || block;
      if (await copy(code.textContent)) {
        button.textContent = "Copied";
      } else {
        // Without the clipboard (a page not served over HTTPS or from localhost): the code selected, to copy by hand.
        const range = document.createRange();
        range.selectNodeContents(code);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        button.textContent = "Selected: press Ctrl+C";
      }
      setTimeout(() => (button.textContent = "Copy"), 2000);
    });
    const frame = document.createElement("div");
    frame.className = "code";
    block.replaceWith(frame);
    frame.append(button, block);
  }
})();`;
