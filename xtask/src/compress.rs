//! Precompressed copies of the page's files (`.br`, `.gz`), served by `cargo xtask serve` to a
//! browser that accepts them, and the gzip inside the single-file page.

use std::io::Write;
use std::path::Path;

use crate::Result;

/// The files worth compressing, by extension.
const COMPRESSED: [&str; 4] = ["wasm", "js", "css", "html"];

/// gzip at level 9.
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes)?;
    Ok(enc.finish()?)
}

/// Brotli at quality 11 with a 4 MB window (the size browsers accept).
pub fn brotli(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 1 << 16, 11, 22);
        enc.write_all(bytes)?;
    }
    Ok(out)
}

/// Writes `F.br` and `F.gz` beside every compressible file `F` under `dir` and returns the
/// (raw, brotli, gzip) size of `main`, a file under `dir`.
pub fn precompress(dir: &Path, main: &Path) -> Result<(u64, u64, u64)> {
    let mut sizes = (0, 0, 0);
    for path in files(dir)? {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !COMPRESSED.contains(&ext) {
            continue;
        }
        let raw = std::fs::read(&path)?;
        let br = brotli(&raw)?;
        let gz = gzip(&raw)?;
        std::fs::write(with_suffix(&path, "br"), &br)?;
        std::fs::write(with_suffix(&path, "gz"), &gz)?;
        if path == main {
            sizes = (raw.len() as u64, br.len() as u64, gz.len() as u64);
        }
    }
    Ok(sizes)
}

/// `path` with `.suffix` appended to its whole name.
pub fn with_suffix(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    path.with_file_name(name)
}

/// Every file under `dir`, recursively, in name order.
fn files(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<std::io::Result<_>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            out.extend(files(&p)?);
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let text = b"KRaft KRaft KRaft KRaft KRaft KRaft KRaft".repeat(50);
        let gz = gzip(&text).unwrap();
        let mut back = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut back).unwrap();
        assert_eq!(back, text);
        let br = brotli(&text).unwrap();
        let mut back = Vec::new();
        std::io::Read::read_to_end(&mut brotli::Decompressor::new(&br[..], 4096), &mut back)
            .unwrap();
        assert_eq!(back, text);
        assert!(br.len() < text.len() / 10 && gz.len() < text.len() / 10);
    }

    #[test]
    fn suffix_is_appended() {
        assert_eq!(
            with_suffix(Path::new("dist/kraft_web_bg.wasm"), "br"),
            Path::new("dist/kraft_web_bg.wasm.br")
        );
    }
}
