// What the fully detached hostile relay leaves running: nothing but a timer, for ever.
globalThis.setInterval(() => {}, 1 << 30);
