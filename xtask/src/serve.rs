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

/// Answers requests on `server` with files from `dir` until the server is unblocked.
pub fn serve(server: &Server, dir: &Path) {
    for request in server.incoming_requests() {
        let response = match resolve(dir, request.url()) {
            Some(path) => match fs::read(&path) {
                Ok(bytes) => Response::from_data(bytes)
                    .with_header(header("Content-Type", content_type(&path)))
                    .with_header(header("Cache-Control", "no-cache")),
                Err(_) => not_found(),
            },
            None => not_found(),
        };
        let _ = request.respond(response);
    }
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
    fn no_escape_from_dist() {
        let dir = std::env::temp_dir();
        assert_eq!(resolve(&dir, "/../etc/passwd"), None);
    }
}
