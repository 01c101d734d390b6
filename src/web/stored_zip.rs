//! A zip archive of stored (uncompressed) files, built in memory under a
//! size cap: what the problem page's "all inputs" download sends.
//!
//! It writes the plain zip format (APPNOTE 6.3.x, section 4.3): per file a
//! local header and the bytes, then the central directory and the end
//! record. No compression (inputs are small next to the body limit, and
//! deflate would mean a dependency for little), no zip64: the cap keeps
//! every size and offset within 32 bits and at most 65,535 files. Every
//! file is dated 1980-01-01 00:00, the format's epoch, so the same inputs
//! give the same bytes. Names are flagged UTF-8. It owns the byte layout
//! only; what goes in and who may read it is the caller's business.

/// The zip format's 32-bit sizes and offsets: no archive is larger.
const FORMAT_LIMIT: usize = u32::MAX as usize;
/// The local file header's fixed part.
const LOCAL_HEADER: usize = 30;
/// The central directory entry's fixed part.
const CENTRAL_HEADER: usize = 46;
/// The end of central directory record (no comment).
const END_RECORD: usize = 22;
/// Version needed to extract: 1.0, stored files.
const VERSION_NEEDED: u16 = 10;
/// Version made by: 2.0 on MS-DOS (no Unix permissions are set).
const VERSION_MADE_BY: u16 = 20;
/// General purpose flag bit 11: the name is UTF-8.
const UTF8_NAME: u16 = 1 << 11;
/// 1980-01-01 in MS-DOS date format (day 1, month 1, year 0 from 1980).
const DOS_DATE: u16 = (1 << 5) | 1;

/// Why a file could not be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZipError {
    /// The archive would pass its cap.
    #[error("the archive would be larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// The format has room for 65,535 files.
    #[error("the archive would hold more than 65535 files")]
    TooManyFiles,
    /// A name longer than the format's 65,535 bytes.
    #[error("a file name is longer than 65535 bytes")]
    NameTooLong,
}

/// A zip archive being written: the local headers and files so far, and
/// their central directory entries, kept apart until [`StoredZip::finish`].
#[derive(Debug)]
pub struct StoredZip {
    bytes: Vec<u8>,
    central: Vec<u8>,
    files: u16,
    /// The largest the finished archive may be, end record included.
    limit: usize,
}

impl StoredZip {
    /// An empty archive that will never be larger than `limit` bytes (nor
    /// than the format's 4 GiB).
    pub fn with_limit(limit: usize) -> StoredZip {
        StoredZip {
            bytes: Vec::new(),
            central: Vec::new(),
            files: 0,
            limit: limit.min(FORMAT_LIMIT),
        }
    }

    /// Adds a file; refused, leaving the archive as it was, if the finished
    /// archive would pass its cap.
    pub fn add(&mut self, name: &str, data: &[u8]) -> Result<(), ZipError> {
        let name_length = u16::try_from(name.len()).map_err(|_| ZipError::NameTooLong)?;
        let files = self.files.checked_add(1).ok_or(ZipError::TooManyFiles)?;
        let finished = [
            self.bytes.len(),
            LOCAL_HEADER,
            name.len(),
            data.len(),
            self.central.len(),
            CENTRAL_HEADER,
            name.len(),
            END_RECORD,
        ]
        .into_iter()
        .try_fold(0usize, usize::checked_add);
        if finished.is_none_or(|size| size > self.limit) {
            return Err(ZipError::TooLarge { limit: self.limit });
        }
        // Within the limit, so within u32: these casts do not truncate.
        let offset = self.bytes.len() as u32;
        let size = data.len() as u32;
        let crc = crc32fast::hash(data);

        let local = &mut self.bytes;
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        for field in [VERSION_NEEDED, UTF8_NAME, 0, 0, DOS_DATE] {
            local.extend_from_slice(&field.to_le_bytes());
        }
        for field in [crc, size, size] {
            local.extend_from_slice(&field.to_le_bytes());
        }
        local.extend_from_slice(&name_length.to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes());
        local.extend_from_slice(name.as_bytes());
        local.extend_from_slice(data);

        let central = &mut self.central;
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        for field in [VERSION_MADE_BY, VERSION_NEEDED, UTF8_NAME, 0, 0, DOS_DATE] {
            central.extend_from_slice(&field.to_le_bytes());
        }
        for field in [crc, size, size] {
            central.extend_from_slice(&field.to_le_bytes());
        }
        // Name length, extra length, comment length, disk, internal
        // attributes; then external attributes and the local header's
        // offset.
        for field in [name_length, 0, 0, 0, 0] {
            central.extend_from_slice(&field.to_le_bytes());
        }
        for field in [0, offset] {
            central.extend_from_slice(&field.to_le_bytes());
        }
        central.extend_from_slice(name.as_bytes());
        self.files = files;
        Ok(())
    }

    /// The finished archive: the files, the central directory, the end
    /// record.
    pub fn finish(self) -> Vec<u8> {
        let StoredZip {
            mut bytes,
            central,
            files,
            ..
        } = self;
        // `add` kept the whole within the limit, so within u32.
        let directory_offset = bytes.len() as u32;
        let directory_size = central.len() as u32;
        bytes.extend_from_slice(&central);
        bytes.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        for field in [0, 0, files, files] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        for field in [directory_size, directory_offset] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        bytes.extend_from_slice(&0u16.to_le_bytes());
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::{StoredZip, ZipError};

    fn u16_at(bytes: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([bytes[at], bytes[at + 1]])
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
    }

    /// Reads an archive back through its central directory, as an unzip
    /// tool does, checking each local header against its directory entry
    /// and each file against its CRC-32.
    fn read(archive: &[u8]) -> Vec<(String, Vec<u8>)> {
        let end = archive.len() - 22;
        assert_eq!(u32_at(archive, end), 0x0605_4b50, "end record");
        let files = u16_at(archive, end + 10) as usize;
        assert_eq!(u16_at(archive, end + 8) as usize, files);
        let size = u32_at(archive, end + 12) as usize;
        let mut at = u32_at(archive, end + 16) as usize;
        assert_eq!(at + size, end, "the directory ends at the end record");
        let mut read = Vec::new();
        for _ in 0..files {
            assert_eq!(u32_at(archive, at), 0x0201_4b50, "directory entry");
            assert_eq!(u16_at(archive, at + 10), 0, "stored");
            let crc = u32_at(archive, at + 16);
            let stored = u32_at(archive, at + 20) as usize;
            assert_eq!(stored, u32_at(archive, at + 24) as usize);
            let name_length = u16_at(archive, at + 28) as usize;
            let local = u32_at(archive, at + 42) as usize;
            let name = &archive[at + 46..at + 46 + name_length];
            assert_eq!(u32_at(archive, local), 0x0403_4b50, "local header");
            assert_eq!(u32_at(archive, local + 14), crc);
            assert_eq!(u16_at(archive, local + 26) as usize, name_length);
            assert_eq!(&archive[local + 30..local + 30 + name_length], name);
            let start = local + 30 + name_length + u16_at(archive, local + 28) as usize;
            let data = archive[start..start + stored].to_vec();
            assert_eq!(crc32fast::hash(&data), crc, "CRC-32");
            read.push((String::from_utf8(name.to_vec()).expect("UTF-8"), data));
            at += 46 + name_length;
        }
        read
    }

    #[test]
    fn an_empty_archive_is_the_bare_end_record() {
        let archive = StoredZip::with_limit(1024).finish();
        let mut expected = vec![0x50, 0x4b, 0x05, 0x06];
        expected.extend([0; 18]);
        assert_eq!(archive, expected);
    }

    #[test]
    fn files_read_back_byte_for_byte_in_order() {
        let mut zip = StoredZip::with_limit(1 << 20);
        zip.add("sample-1.in", b"2\n1 2\n").expect("add");
        zip.add("empty.in", b"").expect("add");
        zip.add("ünïcode.in", &[0, 255, 13, 10]).expect("add");
        let archive = zip.finish();
        assert_eq!(
            read(&archive),
            vec![
                ("sample-1.in".to_string(), b"2\n1 2\n".to_vec()),
                ("empty.in".to_string(), Vec::new()),
                ("ünïcode.in".to_string(), vec![0, 255, 13, 10]),
            ]
        );
        // The known CRC-32 of "123456789" (the check value of the
        // polynomial), through the archive.
        let mut zip = StoredZip::with_limit(1024);
        zip.add("check", b"123456789").expect("add");
        let archive = zip.finish();
        assert_eq!(u32_at(&archive, 14), 0xCBF4_3926);
    }

    #[test]
    fn a_file_that_would_pass_the_cap_is_refused_and_the_archive_stays_whole() {
        // One file of n bytes named "a" takes 30 + 1 + n + 46 + 1 + 22.
        let mut zip = StoredZip::with_limit(100 + 10);
        zip.add("a", &[7; 10]).expect("exactly at the cap");
        let mut zip = StoredZip::with_limit(109);
        assert_eq!(
            zip.add("a", &[7; 10]),
            Err(ZipError::TooLarge { limit: 109 })
        );
        zip.add("b", &[1; 9]).expect("one byte less fits");
        assert_eq!(zip.add("c", b""), Err(ZipError::TooLarge { limit: 109 }));
        let archive = zip.finish();
        assert_eq!(archive.len(), 109);
        assert_eq!(read(&archive), vec![("b".to_string(), vec![1; 9])]);
    }
}
