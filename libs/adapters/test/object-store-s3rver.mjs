// Child process for the object-store tests: runs s3rver on a random loopback port, prints
// {"port":N}, and exits when its stdin closes (the parent's stop()).
import S3rver from 's3rver';

const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2] });
const { port } = await server.run();
// Node's 5 s keep-alive default closes idle sockets the client may be about to reuse: on a loaded machine
// that race showed up as 'socket hang up' mid-upload. Real S3 and MinIO keep idle connections far longer.
server.httpServer.keepAliveTimeout = 120_000;
server.httpServer.headersTimeout = 125_000;
server.httpServer.requestTimeout = 0;
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
