// Child process for the object-store tests: runs s3rver on a random loopback port, prints
// {"port":N}, and exits when its stdin closes (the parent's stop()).
import S3rver from 's3rver';

const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2] });
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
