declare module 'virtual:skillpress/site' {
  const data: import('./site-data.ts').SiteData;
  export default data;
}
