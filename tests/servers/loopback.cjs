// Preloaded into the real servers the describe tests start over HTTP (node --require):
// a server that listens on a port alone would take every address; it gets 127.0.0.1.
const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\d+$/.test(args[0]))) {
    const port = Number(args[0]);
    const callback = args.find((a) => typeof a === "function");
    return callback ? listen.call(this, port, "127.0.0.1", callback) : listen.call(this, port, "127.0.0.1");
  }
  return listen.apply(this, args);
};
