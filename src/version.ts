/** Kept equal to package.json's by a test (test/docs), so that the bundle needs no JSON import at start-up. */
export const SERVER_NAME = 'svc-platform-mcp';
export const SERVER_VERSION = '0.1.0';
export const SERVER_DESCRIPTION =
  'MCP server for fifteen operations of eleven platform services behind one API gateway, with an embedded sandbox.';
export const USER_AGENT = `${SERVER_NAME}/${SERVER_VERSION}`;
