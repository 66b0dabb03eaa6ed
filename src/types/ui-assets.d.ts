/** The UI's page, script and style, imported as text (`with { type: 'text' }`): embedded in the binary. */
declare module '*/assets/index.html' {
  const text: string;
  export default text;
}
declare module '*/assets/app.js' {
  const text: string;
  export default text;
}
declare module '*/assets/app.css' {
  const text: string;
  export default text;
}
