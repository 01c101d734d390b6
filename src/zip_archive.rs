//! Zip archives at the edges, through the `zip` crate: the public inputs
//! download and a program's files in the Contest API (written stored,
//! under a cap), and answers uploaded as one zip (read under a cap on what
//! they unpack to).
//!
//! Both hold the whole archive in memory, so both are bounded: a written
//! archive never passes its limit, and a read one stops at its limit of
//! unpacked bytes however small the zip is (a zip bomb is refused, never
//! unpacked). Which files go in, and who may read them, is the caller's
//! business.

use std::{
    collections::BTreeMap,
    io::{Cursor, Read, Write},
    path::Path,
};

use zip::{CompressionMethod, ZipArchive, ZipWriter, write::SimpleFileOptions};

use crate::domain::TestcaseName;

/// A local header and a central directory entry of one stored file, with
/// no extra fields, without its name: the zip format's fixed parts.
const FILE_OVERHEAD: usize = 30 + 46;
/// The end of central directory record, with no comment.
const END_RECORD: usize = 22;

/// Why an archive could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The archive would pass its cap.
    #[error("the archive would be larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// What the `zip` crate refused.
    #[error("the archive could not be written: {0}")]
    Format(String),
}

/// A zip of stored (uncompressed) files being written in memory, never
/// larger than its limit. Files are dated 1980-01-01 00:00 (the format's
/// epoch), so the same files give the same bytes.
pub struct StoredZip {
    writer: ZipWriter<Cursor<Vec<u8>>>,
    /// The finished archive's size so far: every file added, its
    /// directory entry and the end record.
    finished_size: usize,
    limit: usize,
}

impl StoredZip {
    /// An empty archive that will never be larger than `limit` bytes.
    pub fn with_limit(limit: usize) -> StoredZip {
        StoredZip {
            writer: ZipWriter::new(Cursor::new(Vec::new())),
            finished_size: END_RECORD,
            limit,
        }
    }

    /// Adds a file; refused, adding nothing, if the finished archive would
    /// pass its cap.
    pub fn add(&mut self, name: &str, data: &[u8]) -> Result<(), WriteError> {
        let finished_size = [FILE_OVERHEAD, name.len(), name.len(), data.len()]
            .into_iter()
            .try_fold(self.finished_size, usize::checked_add)
            .filter(|size| *size <= self.limit)
            .ok_or(WriteError::TooLarge { limit: self.limit })?;
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
        let format = |e: &dyn std::fmt::Display| WriteError::Format(e.to_string());
        self.writer
            .start_file(name, options)
            .map_err(|e| format(&e))?;
        self.writer.write_all(data).map_err(|e| format(&e))?;
        self.finished_size = finished_size;
        Ok(())
    }

    /// The finished archive.
    pub fn finish(self) -> Result<Vec<u8>, WriteError> {
        let archive = self
            .writer
            .finish()
            .map_err(|e| WriteError::Format(e.to_string()))?;
        Ok(archive.into_inner())
    }
}

/// Reads a zip of answer files: each file answers the testcase its name
/// says (`sample-1.out` or `sample-1`, in any folder of the zip). Folders,
/// and the hidden files archivers add (`__MACOSX/`, names starting with a
/// dot), are skipped. Refused with a message naming the entry: a name that
/// is no testcase, a testcase answered twice, text that is not UTF-8, and
/// more than `limit` unpacked bytes in all.
pub fn read_answers(
    archive: &[u8],
    limit: usize,
) -> Result<BTreeMap<TestcaseName, String>, String> {
    let mut zip = ZipArchive::new(Cursor::new(archive))
        .map_err(|e| format!("the answers zip could not be read: {e}"))?;
    let mut answers = BTreeMap::new();
    let mut unpacked = 0usize;
    for index in 0..zip.len() {
        let file = zip
            .by_index(index)
            .map_err(|e| format!("the answers zip could not be read: {e}"))?;
        let entry = String::from_utf8_lossy(file.name_raw()).into_owned();
        let Some(path) = file.enclosed_name() else {
            return Err(format!(
                "the answers zip's entry `{entry}` is not a plain relative path"
            ));
        };
        let skipped = file.is_dir()
            || path.components().any(|part| {
                let part = part.as_os_str().to_string_lossy();
                part.starts_with('.') || part == "__MACOSX"
            });
        if skipped {
            continue;
        }
        let stem = Path::new(&path)
            .file_stem()
            .and_then(|stem| stem.to_str())
            .unwrap_or_default();
        let testcase = stem.parse::<TestcaseName>().map_err(|e| {
            format!(
                "the answers zip's file `{entry}` names no testcase ({e}); \
                 name each file after its testcase, as `sample-1.out`"
            )
        })?;
        // One byte past what is left tells a file that passes the limit
        // without unpacking more of it.
        let left = limit - unpacked;
        let mut bytes = Vec::new();
        file.take((left as u64).saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| format!("the answers zip's file `{entry}` could not be read: {e}"))?;
        if bytes.len() > left {
            return Err(format!(
                "the answers zip unpacks to more than {limit} bytes; send fewer or smaller files"
            ));
        }
        unpacked += bytes.len();
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("the answers zip's file `{entry}` is not UTF-8 text"))?;
        if answers.contains_key(&testcase) {
            return Err(format!(
                "testcase `{testcase}` is answered twice in the answers zip; send one file for it"
            ));
        }
        answers.insert(testcase, text);
    }
    Ok(answers)
}

/// Reads every file of a zip, by its path inside it (`/`-separated):
/// folders and what archivers add (`__MACOSX/`, `.DS_Store`) are skipped.
/// Refused with a message naming the entry: a path that leaves the
/// archive, a symbolic link, and more than `limit` unpacked bytes in all.
pub fn read_files(archive: &[u8], limit: usize) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let unreadable = |e: zip::result::ZipError| format!("the zip could not be read: {e}");
    let mut zip = ZipArchive::new(Cursor::new(archive)).map_err(unreadable)?;
    let mut files = BTreeMap::new();
    let mut unpacked = 0usize;
    for index in 0..zip.len() {
        let file = zip.by_index(index).map_err(unreadable)?;
        let entry = String::from_utf8_lossy(file.name_raw()).into_owned();
        let Some(path) = file.enclosed_name() else {
            return Err(format!(
                "the zip's entry `{entry}` is not a plain relative path"
            ));
        };
        if file.is_symlink() {
            return Err(format!("the zip's entry `{entry}` is a symbolic link"));
        }
        let skipped = file.is_dir()
            || path.components().any(|part| {
                let part = part.as_os_str().to_string_lossy();
                part == "__MACOSX" || part == ".DS_Store"
            });
        if skipped {
            continue;
        }
        let left = limit - unpacked;
        let mut bytes = Vec::new();
        file.take((left as u64).saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| format!("the zip's file `{entry}` could not be read: {e}"))?;
        if bytes.len() > left {
            return Err(format!("the zip unpacks to more than {limit} bytes"));
        }
        unpacked += bytes.len();
        let path = path
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        files.insert(path, bytes);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Read, Write};

    use zip::{CompressionMethod, ZipArchive, ZipWriter, write::SimpleFileOptions};

    use super::{StoredZip, WriteError, read_answers};

    /// Every file of an archive, in order, through the `zip` crate's
    /// reader (which checks each file's CRC-32).
    fn files(archive: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut zip = ZipArchive::new(Cursor::new(archive)).expect("a zip");
        (0..zip.len())
            .map(|index| {
                let mut file = zip.by_index(index).expect("an entry");
                assert_eq!(file.compression(), CompressionMethod::Stored);
                let mut data = Vec::new();
                file.read_to_end(&mut data).expect("read");
                (file.name().expect("a UTF-8 name").into_owned(), data)
            })
            .collect()
    }

    /// A zip as an archiver makes one: deflated files and folders.
    fn deflated(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        for (name, data) in entries {
            if name.ends_with('/') {
                writer.add_directory(*name, options).expect("folder");
            } else {
                writer.start_file(*name, options).expect("file");
                writer.write_all(data).expect("write");
            }
        }
        writer.finish().expect("finish").into_inner()
    }

    #[test]
    fn files_read_back_byte_for_byte_in_order_and_the_same_files_give_the_same_bytes() {
        let write = || {
            let mut zip = StoredZip::with_limit(1 << 20);
            zip.add("sample-1.in", b"2\n1 2\n").expect("add");
            zip.add("empty.in", b"").expect("add");
            zip.add("ünïcode.in", &[0, 255, 13, 10]).expect("add");
            zip.finish().expect("finish")
        };
        let archive = write();
        assert_eq!(
            files(&archive),
            vec![
                ("sample-1.in".to_string(), b"2\n1 2\n".to_vec()),
                ("empty.in".to_string(), Vec::new()),
                ("ünïcode.in".to_string(), vec![0, 255, 13, 10]),
            ]
        );
        assert_eq!(write(), archive);
        // No limit at all is a limit too (it once overflowed).
        assert_eq!(
            super::read_files(&archive, usize::MAX).map(|f| f.len()),
            Ok(3)
        );
    }

    #[test]
    fn a_file_that_would_pass_the_cap_is_refused_and_the_archive_stays_whole() {
        // One file of n bytes named "a" takes 30 + 1 + n + 46 + 1 + 22.
        let mut zip = StoredZip::with_limit(110);
        zip.add("a", &[7; 10]).expect("exactly at the cap");
        assert_eq!(zip.finish().expect("finish").len(), 110);
        let mut zip = StoredZip::with_limit(109);
        assert_eq!(
            zip.add("a", &[7; 10]),
            Err(WriteError::TooLarge { limit: 109 })
        );
        zip.add("b", &[1; 9]).expect("one byte less fits");
        assert_eq!(zip.add("c", b""), Err(WriteError::TooLarge { limit: 109 }));
        let archive = zip.finish().expect("finish");
        assert!(archive.len() <= 109, "{}", archive.len());
        assert_eq!(files(&archive), vec![("b".to_string(), vec![1; 9])]);
    }

    #[test]
    fn answers_are_read_by_file_name_from_any_folder_skipping_what_archivers_add() {
        let archive = deflated(&[
            ("answers/", b""),
            ("answers/sample-1.out", b"First\n"),
            ("answers/small-1", b"Second\n"),
            ("__MACOSX/answers/._sample-1.out", &[0, 5, 22, 7]),
            (".DS_Store", &[0, 0, 0, 1]),
        ]);
        let answers = read_answers(&archive, 1024).expect("read");
        let answers: Vec<(String, String)> = answers
            .into_iter()
            .map(|(testcase, text)| (testcase.to_string(), text))
            .collect();
        assert_eq!(
            answers,
            vec![
                ("sample-1".to_string(), "First\n".to_string()),
                ("small-1".to_string(), "Second\n".to_string()),
            ]
        );
    }

    #[test]
    fn bad_answer_zips_are_refused_naming_the_entry() {
        let refused = |entries: &[(&str, &[u8])], limit: usize| {
            read_answers(&deflated(entries), limit).expect_err("refused")
        };
        assert_eq!(
            refused(&[("nope me.out", b"First\n")], 1024),
            "the answers zip's file `nope me.out` names no testcase (testcase name `nope me` must \
             match [a-z0-9][a-z0-9-]* (at most 64 characters)); name each file after its \
             testcase, as `sample-1.out`"
        );
        assert_eq!(
            refused(&[("a/small-1.out", b"1"), ("b/small-1.txt", b"2")], 1024),
            "testcase `small-1` is answered twice in the answers zip; send one file for it"
        );
        assert_eq!(
            refused(&[("small-1.out", &[0xff, 0xfe])], 1024),
            "the answers zip's file `small-1.out` is not UTF-8 text"
        );
        assert_eq!(
            refused(&[("../small-1.out", b"1")], 1024),
            "the answers zip's entry `../small-1.out` is not a plain relative path"
        );
        assert!(
            read_answers(b"PK not a zip", 1024)
                .expect_err("refused")
                .starts_with("the answers zip could not be read: "),
        );
        // A bomb: 64 MiB of zeros deflate to about 64 KiB; it is refused
        // at the limit, never unpacked whole.
        let bomb = vec![b'0'; 64 << 20];
        assert_eq!(
            refused(&[("small-1.out", &bomb)], 1 << 20),
            "the answers zip unpacks to more than 1048576 bytes; send fewer or smaller files"
        );
        // Exactly at the limit, across files, is fine.
        let answers = read_answers(&deflated(&[("a.out", b"12"), ("b.out", b"345")]), 5)
            .expect("at the limit");
        assert_eq!(answers.len(), 2);
        assert!(read_answers(&deflated(&[("a.out", b"12"), ("b.out", b"3456")]), 5).is_err());
    }
}
