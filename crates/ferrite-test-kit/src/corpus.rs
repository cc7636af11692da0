//! Seed corpora: the files a crate keeps under tests/corpus/<target>/ (one raw input per file,
//! the format cargo-fuzz uses), replayed by its corpus tests.

use std::path::Path;

/// Every file of the corpus directory `directory`, sorted by name: its name and its bytes. The
/// directory must hold at least `at_least` files.
pub fn corpus_files(directory: &Path, at_least: usize) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(directory)
        .unwrap_or_else(|error| panic!("corpus {}: {error}", directory.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                bytes,
            )
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= at_least,
        "corpus {} has {} files, fewer than {at_least}",
        directory.display(),
        files.len()
    );
    files
}
