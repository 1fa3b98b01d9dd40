/* SPDX-License-Identifier: MIT */
/*
 * Description: opening a target once, by identity.
 *
 * A block device is opened O_EXCL, which the kernel refuses while the
 * device is mounted, used as swap, or held by md/dm: kiln never writes
 * what is in use. Its identity comes from sysfs at open time and is checked
 * again later, because kernel names shift when a drive drops out, and a
 * wiping tool once overwrote an OS disk that way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/deadline.h"
#include "discover/target.h"

/* Whether path would be made in /dev (or below): a mistyped device. */
/*
 * A word written as kiln writes identities (loop:/path, wwn:..., a
 * serial:...): a target that does not exist under that name was most
 * likely meant as --destroy-data's list, given after a space.
 */
static int identity_like(const char *path)
{
	static const char *const kinds[] = { "loop:", "wwn:", "serial:",
					     "path:", "name:", "naa.",
					     "eui." };
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(path, kinds[i], strlen(kinds[i])))
			return 1;
	return 0;
}

static int under_dev(const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	if (!realpath(dir, real))
		return 0;
	return !strcmp(real, "/dev") || !strncmp(real, "/dev/", 5);
}

static int create_file(const char *path, uint64_t size, char *err,
		       size_t errlen)
{
	int fd, ret = 0;

	if (under_dev(path)) {
		snprintf(err, errlen,
			 "%s: no such device (kiln never creates a file "
			 "under /dev)",
			 path);
		return -ENOENT;
	}

	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(errno));
		return ret;
	}
	/* Reserve the space now, so a full filesystem shows before the run. */
	if (fallocate(fd, 0, 0, (off_t)size) < 0) {
		if (errno != EOPNOTSUPP && errno != ENOSYS) {
			ret = -errno;
			snprintf(err, errlen,
				 "cannot allocate %llu bytes for %s: %s",
				 (unsigned long long)size, path,
				 strerror(errno));
			close(fd);
			unlink(path);
			return ret;
		}
		if (ftruncate(fd, (off_t)size) < 0) {
			ret = -errno;
			snprintf(err, errlen, "cannot size %s: %s", path,
			    strerror(errno));
			close(fd);
			unlink(path);
			return ret;
		}
	}
	close(fd);
	return 0;
}

/* The safety class, through the fd that will do the I/O: no window. */
static void classify(struct target *t)
{
	struct safety_subject d = {
		.name = t->kind == TARGET_BLOCK ? t->id.name : "",
		.rdev = t->rdev,
		.path = t->kind == TARGET_FILE ? t->id.identity + 5 : NULL,
		.fd = t->fd, .size = t->size, .ident = t->ident };

	safety_classify(t->env, &d, &t->safety);
	/* What it hides from the OS, which an erase of it would not reach. */
	if (t->kind == TARGET_BLOCK)
		hidden_check(t->fd, t->lbs, t->env->sysroot, t->rdev,
			     &t->hidden);
	else
		hidden_note(&t->hidden, HIDDEN_UNCHECKED, "not checked: a "
			    "file, not a device");
}

/* The kernel would not open it exclusively: say who holds it, if we can. */
static void say_busy(struct target *t, const struct stat *st, char *err,
		     size_t errlen)
{
	struct identity id;
	struct safety s;
	struct safety_subject d = { .rdev = st->st_rdev, .fd = -1 };

	if (identity_read(t->env->sysroot, major(st->st_rdev),
			  minor(st->st_rdev), 0, &id) == 0) {
		d.name = id.name;
		safety_in_use(t->env, &d, &s);
		if (s.why[0]) {
			snprintf(err, errlen,
				 "refusing to touch %s: it is in use "
				 "(%s)",
				 t->path, s.why);
			return;
		}
	}
	snprintf(err, errlen, "refusing to touch %s: it is in use (the kernel "
	    "refuses to open it exclusively: mounted, held, or open in "
	    "another kiln)", t->path);
}

/*
 * A kiln killed a moment ago still holds its targets until the kernel has
 * torn down its io_uring (tens of milliseconds): a device stays claimed,
 * a file locked. Asked again within a second, that is not "busy".
 */
#define SETTLE_TRIES 50
#define SETTLE_NS 20000000L

static int open_settled(const char *path, int flags)
{
	const struct timespec step = { 0, SETTLE_NS };
	int fd, i;

	for (i = 0; (fd = open(path, flags)) < 0 && errno == EBUSY &&
		    i < SETTLE_TRIES; i++)
		nanosleep(&step, NULL);
	return fd;
}

static int lock_settled(int fd)
{
	const struct timespec step = { 0, SETTLE_NS };
	int ret, i;

	for (i = 0; (ret = flock(fd, LOCK_EX | LOCK_NB)) < 0 &&
		    errno == EWOULDBLOCK && i < SETTLE_TRIES; i++)
		nanosleep(&step, NULL);
	return ret;
}

static int open_block(struct target *t, const struct stat *st, char *err,
		      size_t errlen)
{
	int flags = (t->writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_EXCL |
		    O_CLOEXEC;
	struct stat now;
	unsigned long long size = 0;
	int lbs = 0, pbs = 0, ro = 0;

	t->fd = open_settled(t->path, flags);
	/* Read-only (losetup -r, blockdev --setro): open it to read; say so. */
	if (t->fd < 0 && t->writable && (errno == EROFS || errno == EACCES)) {
		t->fd = open(t->path, (flags & ~O_RDWR) | O_RDONLY);
		t->read_only = t->fd >= 0;
	}
	if (t->fd < 0) {
		int e = errno;

		if (e == EBUSY)
			say_busy(t, st, err, errlen);
		else
			snprintf(err, errlen, "cannot open %s: %s", t->path,
			    strerror(e));
		return -e;
	}
	/* The name could have changed hands between stat and open. */
	if (fstat(t->fd, &now) < 0 || !S_ISBLK(now.st_mode) ||
	    now.st_rdev != st->st_rdev) {
		snprintf(err, errlen, "%s changed while it was being opened",
			 t->path);
		return -ESTALE;
	}
	t->rdev = now.st_rdev;
	t->direct = 1;
	if (ioctl(t->fd, BLKGETSIZE64, &size) < 0 ||
	    ioctl(t->fd, BLKSSZGET, &lbs) < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot read the size of %s: %s", t->path,
		    strerror(e));
		return -e;
	}
	if (ioctl(t->fd, BLKPBSZGET, &pbs) < 0)
		pbs = lbs;
	if (ioctl(t->fd, BLKROGET, &ro) == 0 && ro)
		t->read_only = 1;
	t->size = size;
	t->lbs = (unsigned)lbs;
	t->pbs = (unsigned)pbs;
	identity_read(t->env->sysroot, major(t->rdev), minor(t->rdev), t->size,
			  &t->id);
	if (!t->id.identity[0])
		snprintf(t->id.identity, sizeof(t->id.identity),
			 "dev:%u:%u:%llu", major(t->rdev), minor(t->rdev),
			 size);
	return 0;
}

static int open_file(struct target *t, char *err, size_t errlen)
{
	int flags = (t->writable ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	char real[PATH_MAX];
	const char *base;
	struct stat st;

	t->fd = open(t->path, flags | O_DIRECT);
	t->direct = t->fd >= 0;
	/* Some filesystems (tmpfs before Linux 6.6) refuse O_DIRECT. */
	if (t->fd < 0 && errno == EINVAL)
		t->fd = open(t->path, flags);
	if (t->fd < 0 && t->writable && (errno == EROFS || errno == EACCES)) {
		flags = (flags & ~O_RDWR) | O_RDONLY;
		t->fd = open(t->path, flags | O_DIRECT);
		t->direct = t->fd >= 0;
		if (t->fd < 0 && errno == EINVAL)
			t->fd = open(t->path, flags);
		t->read_only = t->fd >= 0;
	}
	if (t->fd < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot open %s: %s", t->path,
			 strerror(e));
		return -e;
	}
	if (fstat(t->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s changed while it was being opened",
			 t->path);
		return -ESTALE;
	}
	/* Another kiln on this file: two burns would wreck each other. */
	if (lock_settled(t->fd) < 0 && errno == EWOULDBLOCK) {
		snprintf(err, errlen, "cannot use %s: another kiln holds it",
			 t->path);
		return -EBUSY;
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->size = (uint64_t)st.st_size;
	/* Units are 4 KiB aligned, which suits any filesystem's O_DIRECT. */
	t->lbs = 4096;
	t->pbs = 4096;
	t->id.rotational = -1;
	if (!realpath(t->path, real))
		snprintf(real, sizeof(real), "%s", t->path);
	if (snprintf(t->id.identity, sizeof(t->id.identity), "file:%s", real) <
	    0)
		return -EINVAL;
	base = strrchr(real, '/');
	snprintf(t->id.name, sizeof(t->id.name), "%.63s",
		 base ? base + 1 : real);
	return 0;
}

int target_open(struct target *t, const struct safety_env *env,
		const char *path, int writable, uint64_t create, char *err,
		size_t errlen)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->env = env;
	t->fd = -1;
	t->path = path;
	t->writable = writable;
	err[0] = 0;

	if (stat(path, &st) < 0) {
		int e = errno;

		if (e == ENOENT && under_dev(path)) {
			/* Not a file to create, whatever --size says. */
			snprintf(err, errlen, "%s: no such device (kiln never "
				 "creates a file under /dev)", path);
			return -ENOENT;
		}
		errno = e;
		/* Never made under a name that reads as a consent list. */
		if (errno == ENOENT && identity_like(path)) {
			snprintf(err, errlen, "%s: no such file or device; it "
				 "reads as a disk's identity: to consent, give "
				 "--destroy-data=%s (an '=', no space; ./%s "
				 "makes a file of that name)", path, path,
				 path);
			return -ENOENT;
		}
		if (errno != ENOENT || !create || !writable) {
			ret = -errno;
			if (errno == ENOENT && writable)
				snprintf(err, errlen,
					 "%s: no such file or device "
					 "(give --size to create a file)",
					 path);
			else
				snprintf(err, errlen, "%s: %s", path,
					 strerror(errno));
			return ret;
		}
		ret = create_file(path, create, err, errlen);
		if (ret)
			return ret;
		t->created = 1;
		if (stat(path, &st) < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return ret;
		}
	}

	if (S_ISBLK(st.st_mode)) {
		t->kind = TARGET_BLOCK;
		ret = open_block(t, &st, err, errlen);
	} else if (S_ISREG(st.st_mode)) {
		t->kind = TARGET_FILE;
		ret = open_file(t, err, errlen);
	} else {
		snprintf(err, errlen,
			 "%s: not a block device or a regular file", path);
		return -ENOTBLK;
	}
	if (ret) {
		target_close(t);
		return ret;
	}
	t->ident = unit_ident_hash(t->id.identity);
	classify(t);
	return 0;
}

/*
 * The lock on one medium: an abstract socket's name, which the kernel
 * gives up when its last descriptor closes, however kiln ends; no file
 * is needed anywhere. It listens, so a kiln that finds the name taken
 * learns which kiln holds it (SO_PEERCRED).
 */
static socklen_t claim_name(const struct safety_medium *m,
			    struct sockaddr_un *a)
{
	int len;

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	len = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1,
		       "kiln-bytes %s %u:%u %llu", m->file ? "file" : "block",
		       major(m->dev), minor(m->dev),
		       m->file ? (unsigned long long)m->ino : 0ull);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			   (size_t)len);
}

/* The pid of the kiln that holds the claim at a, or 0. */
static pid_t claim_holder(const struct sockaddr_un *a, socklen_t len)
{
	struct ucred cred = { 0 };
	socklen_t clen = sizeof(cred);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			0);

	if (fd < 0)
		return 0;
	if (connect(fd, (const struct sockaddr *)a, len) ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen))
		cred.pid = 0;
	close(fd);
	return cred.pid;
}

int target_claim(struct target *t, char *err, size_t errlen)
{
	const struct safety *s = &t->safety;
	int i, ret;

	for (i = 0; i < s->nholds && t->nclaims < SAFETY_HOLDS; i++) {
		struct sockaddr_un a;
		socklen_t len = claim_name(&s->holds[i], &a);
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), k;
		pid_t pid;

		/* The same medium twice in one target (a partition's). */
		for (k = 0; k < i && !(s->holds[k].file == s->holds[i].file &&
				       s->holds[k].dev == s->holds[i].dev &&
				       s->holds[k].ino == s->holds[i].ino);
		     k++)
			;
		if (fd >= 0 && k < i) {
			close(fd);
			continue;
		}
		if (fd >= 0 && bind(fd, (const struct sockaddr *)&a, len) == 0 &&
		    listen(fd, 4) == 0) {
			t->claims[t->nclaims++] = fd;
			continue;
		}
		/*
		 * A claim not made is no claim: another kiln could start on
		 * the same bytes (out of descriptors, say), so it refuses.
		 */
		ret = -errno;
		if (fd >= 0)
			close(fd);
		if (ret != -EADDRINUSE) {
			snprintf(err, errlen, "cannot claim %s against other "
				 "kilns: %s", t->path, strerror(-ret));
			return ret;
		}
		pid = claim_holder(&a, len);
		if (pid > 0)
			snprintf(err, errlen, "refusing to touch %s: it is in "
				 "use (%s is being tested by another kiln "
				 "(pid %d))", t->path,
				 !strcmp(s->holds[i].name, "it") ? "it" :
				 s->holds[i].name, (int)pid);
		else
			snprintf(err, errlen, "refusing to touch %s: it is in "
				 "use (%s is being tested by another kiln)",
				 t->path, !strcmp(s->holds[i].name, "it") ?
				 "it" : s->holds[i].name);
		return -EBUSY;
	}
	return 0;
}

/* Whether a and b hold some of the same bytes, by their holds. */
static int same_bytes(const struct target *a, const struct target *b)
{
	int i, k;

	for (i = 0; i < a->safety.nholds; i++)
		for (k = 0; k < b->safety.nholds; k++) {
			const struct safety_medium *x = &a->safety.holds[i],
						   *y = &b->safety.holds[k];

			if (x->file == y->file && x->dev == y->dev &&
			    (!x->file || x->ino == y->ino))
				return 1;
		}
	return 0;
}

int target_same(const struct target *a, const struct target *b)
{
	const char *fa, *fb;

	if (same_bytes(a, b))
		return 1;

	if (a->kind == b->kind && a->kind == TARGET_BLOCK && a->rdev == b->rdev)
		return 1;
	if (a->kind == b->kind && a->kind == TARGET_FILE && a->dev == b->dev &&
	    a->ino == b->ino)
		return 1;
	/* One WWN or serial on two paths (multipath), two loops on one file. */
	if (a->id.identity[0] && !strcmp(a->id.identity, b->id.identity))
		return 1;
	/* A loop device and its own backing file. */
	fa = a->kind == TARGET_FILE ? a->id.identity + 5 : a->id.backing;
	fb = b->kind == TARGET_FILE ? b->id.identity + 5 : b->id.backing;
	return a->kind != b->kind && fa[0] && fb[0] && !strcmp(fa, fb);
}

int target_bad_name(int ret)
{
	switch (ret < 0 ? -ret : ret) {
	case ENOENT: case ENOTBLK: case EBUSY: case EISDIR: case EACCES:
	case EPERM: case ENOTDIR: case ELOOP: case ENAMETOOLONG: case ENXIO:
	case ENODEV:
		return 1;
	}
	return 0;
}

int target_names_same(const char *path, const struct target *t)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 0;
	if (t->kind == TARGET_BLOCK)
		return S_ISBLK(st.st_mode) && st.st_rdev == t->rdev;
	return S_ISREG(st.st_mode) && st.st_dev == t->dev &&
	       st.st_ino == t->ino;
}

int target_check(const struct target *t)
{
	struct identity now;
	struct stat st;

	if (t->kind == TARGET_FILE)
		return fstat(t->fd, &st) < 0 ? -ENODEV : 0;
	if (identity_read(t->env->sysroot, major(t->rdev), minor(t->rdev),
			  t->size, &now) < 0)
		return -ENODEV;
	if (strcmp(now.identity, t->id.identity))
		return -ESTALE;
	return 0;
}

int target_path_current(const struct target *t, uint64_t timeout_ns)
{
	struct stat st;
	int ret = deadline_stat(t->path, &st, timeout_ns);

	if (ret == -ETIMEDOUT)
		return ret;
	if (ret < 0)
		return 0;
	if (t->kind == TARGET_BLOCK)
		return S_ISBLK(st.st_mode) && st.st_rdev == t->rdev;
	return st.st_dev == t->dev && st.st_ino == t->ino;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	while (t->nclaims > 0)
		close(t->claims[--t->nclaims]);
}
