// Files the islands import as build files (Vite): their address, with the content's hash in the name.
declare module '*.svg?no-inline' {
  const url: string;
  export default url;
}
