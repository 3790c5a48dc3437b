// Loaded in <head> without defer, before the page is drawn: marks the page as having JavaScript, so the
// stylesheet hides what only works without it (html:not(.js)) with no flash. The only script that blocks.
document.documentElement.classList.add("js");
