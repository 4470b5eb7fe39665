/** Content types are stored and echoed back in headers, so they must be one printable line. */
export function assertValidContentType(contentType: string): void {
  if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(contentType) || !contentType.includes('/')) {
    throw new Error(`invalid content type: ${JSON.stringify(contentType)}`);
  }
}
