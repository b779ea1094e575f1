//! A tiny static file server for `dist/` (tiny_http).

use std::fs;
use std::path::{Component, Path, PathBuf};

use tiny_http::{Header, Response, Server};

use crate::Result;

/// Serves `dir` on 127.0.0.1:`port` until the process is stopped.
pub fn serve_forever(dir: &Path, port: u16) -> Result<()> {
    let server = Server::http(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    println!(
        "serving {} at http://127.0.0.1:{port}/  (Ctrl-C to stop)",
        dir.display()
    );
    serve(&server, dir);
    Ok(())
}

/// Answers requests on `server` with files from `dir` until the server is unblocked; a file's
/// precompressed `.br` (or `.gz`) copy goes to a browser that accepts it.
pub fn serve(server: &Server, dir: &Path) {
    for request in server.incoming_requests() {
        let accepts = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Accept-Encoding"))
            .map(|h| h.value.as_str().to_string())
            .unwrap_or_default();
        let response = match resolve(dir, request.url()) {
            Some(path) => {
                let (file, encoding) = encoded(&path, &accepts);
                match fs::read(&file) {
                    Ok(bytes) => {
                        let mut r = Response::from_data(bytes)
                            .with_header(header("Content-Type", content_type(&path)))
                            .with_header(header("Cache-Control", "no-cache"))
                            .with_header(header("Vary", "Accept-Encoding"));
                        if let Some(e) = encoding {
                            r = r.with_header(header("Content-Encoding", e));
                        }
                        r
                    }
                    Err(_) => not_found(),
                }
            }
            None => not_found(),
        };
        let _ = request.respond(response);
    }
}

/// The file to send for `path` given the request's Accept-Encoding: its `.br` copy, else its
/// `.gz` copy, where one exists and the browser accepts it, else `path` itself.
fn encoded(path: &Path, accepts: &str) -> (PathBuf, Option<&'static str>) {
    let takes = |coding: &str| {
        accepts.split(',').any(|part| {
            let mut it = part.split(';');
            let name = it.next().unwrap_or("").trim();
            let refused = it.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            name.eq_ignore_ascii_case(coding) && !refused
        })
    };
    for (coding, suffix) in [("br", "br"), ("gzip", "gz")] {
        let copy = crate::compress::with_suffix(path, suffix);
        if takes(coding) && copy.is_file() {
            return (copy, Some(coding));
        }
    }
    (path.to_path_buf(), None)
}

fn not_found() -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string("404 not found")
        .with_status_code(404)
        .with_header(header("Content-Type", "text/plain; charset=utf-8"))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

/// Maps a request URL to a file under `dir`; `None` for anything outside it or missing.
fn resolve(dir: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let mut file = dir.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

/// The Content-Type for a file, by extension.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "lesson" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        assert_eq!(
            content_type(Path::new("a/kraft_web_bg.wasm")),
            "application/wasm"
        );
        assert_eq!(
            content_type(Path::new("kraft_web.js")),
            "text/javascript; charset=utf-8"
        );
    }

    #[test]
    fn picks_the_encoding_the_browser_accepts() {
        let dir = std::env::temp_dir().join(format!("kraft-serve-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.wasm");
        for p in [&file, &dir.join("a.wasm.br"), &dir.join("a.wasm.gz")] {
            fs::write(p, b"x").unwrap();
        }
        let br = dir.join("a.wasm.br");
        let gz = dir.join("a.wasm.gz");
        assert_eq!(encoded(&file, "gzip, deflate, br"), (br, Some("br")));
        assert_eq!(encoded(&file, "gzip, br;q=0"), (gz.clone(), Some("gzip")));
        assert_eq!(encoded(&file, "GZIP"), (gz, Some("gzip")));
        assert_eq!(encoded(&file, ""), (file.clone(), None));
        fs::remove_file(dir.join("a.wasm.br")).unwrap();
        fs::remove_file(dir.join("a.wasm.gz")).unwrap();
        assert_eq!(encoded(&file, "br, gzip"), (file, None));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_escape_from_dist() {
        let dir = std::env::temp_dir();
        assert_eq!(resolve(&dir, "/../etc/passwd"), None);
    }
}
