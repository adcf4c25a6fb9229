// A turn of the worker's event loop between two slices of Python, so that a message (a cancel) gets in.
// Not setTimeout(0): Chromium clamps nested timers to 4 ms, so each turn of a long job sat idle 4 ms
// (200 turns: 827 ms by setTimeout, 4.5 ms by this channel, measured in Chromium's worker). A message
// posted to a channel is queued behind the messages already waiting, a cancel from the page among them.

const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()();

/** Resolves once every message already queued for this worker has been handled. */
export const turn = () => new Promise((resolve) => {
  waiting.push(resolve);
  channel.port2.postMessage(null);
});
