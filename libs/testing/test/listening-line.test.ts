import { describe, expect, it } from 'vitest';
import { listeningPort } from '../src/listening-line.ts';

describe('listeningPort', () => {
  it('reads the port from the launcher\'s JSON start-up line, among the lines around it', () => {
    const output = [
      '{"level":30,"time":1,"msg":"metrics at http://127.0.0.1:40001/metrics"}',
      '{"level":30,"time":2,"target":"all","msg":"Skald (all) listening on http://127.0.0.1:41234"}',
      '{"level":40,"time":3,"msg":"PUBLIC_URL is not set: links in mails (password reset) will point to http://localhost:8080"}',
    ].join('\n');
    expect(listeningPort(output)).toBe(41234);
  });

  it('reads any host, an IPv6 one in brackets too, and a bare line as the bench\'s plain server prints it', () => {
    expect(listeningPort('Skald (gateway) listening on http://[::1]:8080\n')).toBe(8080);
    expect(listeningPort('listening on http://0.0.0.0:9000\n')).toBe(9000);
  });

  it('is undefined until the whole line is there, and takes the first when a process printed two', () => {
    expect(listeningPort('{"msg":"metrics at http://127.0.0.1:40001/metrics"}')).toBeUndefined();
    // Output read while the line arrives: the digits so far are not the port.
    expect(listeningPort('{"msg":"Skald (all) listening on http://127.0.0.1:4')).toBeUndefined();
    expect(listeningPort('{"msg":"Skald (all) listening on http://127.0.0.1:41234"')).toBe(41234);
    expect(listeningPort('listening on http://127.0.0.1:5000\nlistening on http://127.0.0.1:6000')).toBe(5000);
  });
});
