// Share on the scoresheet and the scoreboard (button.share-game, data-url: the scoreboard link, data-room: the room
// code): the phone's share sheet where it has one; otherwise the link copied, and said so; where neither works, the
// link shown selected, to copy by hand. Without JavaScript the button is hidden (.js-only): the link and QR code stay.
import { el, inside, on } from "./dom.js";
import { say } from "./words.js";

async function share(button) {
  const { url, room, title } = button.dataset;
  const note = button.nextElementSibling;  // p.share-note, role=status
  note.replaceChildren();
  try {
    if (navigator.share) {
      return await navigator.share({ title, text: room ? say("follow", { room }) : title, url });
    }
  } catch (error) {
    if (error.name === "AbortError") return;  // the player closed the share sheet
  }
  try {
    await navigator.clipboard.writeText(url);
    note.append(say("copied"));
  } catch (error) {
    const link = el("input", { type: "text", readonly: "", value: url, "aria-label": say("link") });
    note.append(say("copy") + " ", link);
    link.select();
  }
}

on("click", (event) => {
  const button = inside(event, "button.share-game");
  if (button) share(button);
});
