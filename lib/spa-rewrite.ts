/**
 * CloudFront Function (cloudfront-js-2.0) on the site's default behaviour, at viewer request: a path
 * whose last segment has no extension is a route of the React app, so S3 is asked for /index.html.
 * Files (/assets/app-1a2b.js, /config.json) go through unchanged, and a missing one stays a 403/404.
 * /api/* has its own behaviour and never reaches this function, so API errors are never turned into
 * the app's HTML, as a distribution-wide 403/404 → /index.html error response would do.
 */
export const spaRewriteCode = `function handler(event) {
  var request = event.request;
  var lastSegment = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;
