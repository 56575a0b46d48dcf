const base = ['fastify','kysely','pg','zod','socket.io','ioredis','react-dom/server'];
for (const m of base) await import(m);
globalThis.gc(); await new Promise(r=>setTimeout(r,200)); globalThis.gc();
const m0 = process.memoryUsage();
const mods = process.argv.slice(2);
for (const m of mods) await import(m);
globalThis.gc(); await new Promise(r=>setTimeout(r,200)); globalThis.gc();
const m1 = process.memoryUsage();
console.log(mods.join(','), 'heapUsed +', ((m1.heapUsed-m0.heapUsed)/1e6).toFixed(1), 'heapTotal +', ((m1.heapTotal-m0.heapTotal)/1e6).toFixed(1),'rss +', ((m1.rss-m0.rss)/1e6).toFixed(1));
