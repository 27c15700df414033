export interface RemoteHeader {
  name: string;
  value: string;
  isSecret?: boolean;
  isRequired?: boolean;
}
export function remoteExample(root: string): { remotes: { type: string; url: string; headers: RemoteHeader[] }[] };
