#!/usr/bin/python3
# A case-insensitive, case-preserving filesystem for tests, as macOS (APFS) and Windows (NTFS)
# disks are by default: FUSE over a backing folder. A name is looked up ignoring case (and,
# like APFS, Unicode normalisation) and kept as it was first written; a rename that changes
# only case renames. The kernel here cannot
# mount a casefolded ext4, and Debian ships no ciopfs, so this stands in for such a disk.
# It also plays Windows's sharing violations: while the backing folder holds NAME.sharing-lock
# beside NAME (made there by a test, never visible through the mount), opening NAME fails with
# EBUSY, the code Node gives on Windows for a file another program opened without sharing.
#   case-insensitive-fs.py BACKING MOUNTPOINT   (stays in the foreground; unmount to stop)
import errno
import os
import sys
import unicodedata

from fusepy import FUSE, FuseOSError, Operations


LOCK_SUFFIX = '.sharing-lock'


def fold(name):
    return unicodedata.normalize('NFC', name).casefold()


class CaseInsensitive(Operations):
    def __init__(self, backing):
        self.backing = os.path.realpath(backing)

    # ---- names --------------------------------------------------------------------------

    def _real(self, path, for_create=False):
        """The backing path for `path`, each component matched ignoring case."""
        real = self.backing
        parts = [p for p in path.split('/') if p]
        for i, part in enumerate(parts):
            candidate = os.path.join(real, part)
            if not os.path.lexists(candidate):
                folded = fold(part)
                try:
                    match = next((n for n in os.listdir(real) if fold(n) == folded), None)
                except (FileNotFoundError, NotADirectoryError):
                    match = None
                if match is not None:
                    candidate = os.path.join(real, match)
                elif not (for_create and i == len(parts) - 1):
                    # A missing parent: whatever comes next fails with ENOENT.
                    candidate = os.path.join(real, part)
            real = candidate
        return real

    # ---- metadata -----------------------------------------------------------------------

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._real(path))
        except OSError as error:
            raise FuseOSError(error.errno)
        keys = ('st_mode', 'st_nlink', 'st_uid', 'st_gid', 'st_size', 'st_ino',
                'st_atime', 'st_mtime', 'st_ctime')
        attrs = {k: getattr(st, k) for k in keys}
        attrs['st_atime'] = st.st_atime_ns / 1e9
        attrs['st_mtime'] = st.st_mtime_ns / 1e9
        attrs['st_ctime'] = st.st_ctime_ns / 1e9
        return attrs

    def access(self, path, mode):
        if not os.access(self._real(path), mode):
            raise FuseOSError(errno.EACCES)

    def readdir(self, path, fh):
        names = [n for n in os.listdir(self._real(path)) if not n.endswith(LOCK_SUFFIX)]
        return ['.', '..'] + names

    def readlink(self, path):
        return os.readlink(self._real(path))

    def statfs(self, path):
        st = os.statvfs(self._real(path))
        keys = ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail', 'f_ffree',
                'f_files', 'f_flag', 'f_frsize', 'f_namemax')
        return {k: getattr(st, k) for k in keys}

    def chmod(self, path, mode):
        os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self._real(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self._real(path), times, follow_symlinks=False)

    # ---- changes ------------------------------------------------------------------------

    def mkdir(self, path, mode):
        real = self._real(path, for_create=True)
        if os.path.lexists(real):
            raise FuseOSError(errno.EEXIST)
        os.mkdir(real, mode)

    def rmdir(self, path):
        os.rmdir(self._real(path))

    def unlink(self, path):
        os.unlink(self._real(path))

    def symlink(self, target, source):
        os.symlink(source, self._real(target, for_create=True))

    def rename(self, old, new):
        src = self._real(old)
        dst = self._real(new, for_create=True)
        if os.path.lexists(dst) and os.path.samefile(src, dst):
            # Only the case changes: the one entry takes the new spelling.
            dst = os.path.join(os.path.dirname(dst), os.path.basename(new))
        os.rename(src, dst)

    def link(self, target, source):
        os.link(self._real(source), self._real(target, for_create=True))

    # ---- contents -----------------------------------------------------------------------

    def open(self, path, flags):
        real = self._real(path)
        if os.path.lexists(real + LOCK_SUFFIX):
            raise FuseOSError(errno.EBUSY)
        return os.open(real, flags)

    def create(self, path, mode, fi=None):
        return os.open(self._real(path, for_create=True), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path, length, offset, fh):
        return os.pread(fh, length, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        if fh is not None:
            os.ftruncate(fh, length)
        else:
            os.truncate(self._real(path), length)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)

    def fsync(self, path, datasync, fh):
        if datasync:
            os.fdatasync(fh)
        else:
            os.fsync(fh)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.stderr.write('usage: case-insensitive-fs.py BACKING MOUNTPOINT\n')
        sys.exit(2)
    # No kernel caches of names or attributes: a lookup in any case must reach _real().
    FUSE(CaseInsensitive(sys.argv[1]), sys.argv[2], foreground=True, nothreads=True,
         attr_timeout=0, entry_timeout=0, negative_timeout=0, use_ino=True)
