// Runs in the page (plain JavaScript: sent as text, never transpiled). Scrolls down one viewport
// at a time so lazy images and IntersectionObserver loaders fire, waits (bounded) for the images
// that started loading, and returns to the top. Bounded by steps and time: an endless feed cannot
// hold the call.
(async function scrollThrough(budgetMs) {
  const deadline = Date.now() + budgetMs;
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  const step = Math.max(200, Math.floor(window.innerHeight * 0.9));
  for (let i = 0; i < 200 && Date.now() < deadline; i++) {
    if (window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2) break;
    window.scrollBy(0, step);
    await frame();
    await pause(50);
  }
  const pending = Array.from(document.images).filter((img) => !img.complete);
  await Promise.race([
    Promise.all(pending.map((img) => new Promise((r) => {
      img.addEventListener('load', r, { once: true });
      img.addEventListener('error', r, { once: true });
    }))),
    pause(Math.max(0, Math.min(5000, deadline - Date.now()))),
  ]);
  window.scrollTo(0, 0);
  await frame();
})
