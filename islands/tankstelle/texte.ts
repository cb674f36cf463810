// The texts the island shows, translated by the server in the page's language and handed over in the props
// (views/tankstelle/index.ejs builds them from locales/{de,en}/tankstelle.json). Texts with values keep them as
// {name} placeholders, filled in the browser (model.ts `fill`).
export interface Texte {
  [key: string]: string;
}
