/* SPDX-License-Identifier: MIT */
/*
 * Description: nvme_admin() on what is not an NVMe device, the failures
 * every caller reads in its own terms: a pipe, /dev/null and a regular
 * file answer -ENOTTY (the ioctl is not theirs), fd -1 answers -EBADF,
 * and errno is left as the ioctl set it, since dealloc.c says
 * strerror(errno) after a failed command. No controller is asked here:
 * a real one's answers (0, a status) are QEMU's NVMe drives' in the e2e
 * tests (sanitize.t, sanstatus.t, hidden.t, endpromise.t, signals.t).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/nvme_admin.h"

/* An Identify Controller, as sanstep.c and hidden_ask.c send it. */
static int identify(int fd, uint8_t *buf)
{
	struct nvme_admin a = { .opcode = 0x06, .cdw10 = 0x01, .buf = buf,
				.len = 4096, .timeout_ms = 1000 };

	return nvme_admin(fd, &a);
}

/* ret is -want and errno is want: the caller may read either. */
static void failed(const char *what, int fd, int want)
{
	uint8_t buf[4096];
	int ret;

	memset(buf, 0xa5, sizeof(buf));
	errno = 0;
	ret = identify(fd, buf);
	tap_ok(ret == -want, "%s: returns -%d, %s (got %d)", what, want,
	       strerror(want), ret);
	tap_ok(errno == want, "%s: errno is left as the ioctl set it (%d)",
	       what, errno);
	tap_ok(buf[0] == 0xa5 && buf[4095] == 0xa5, "%s: the buffer is "
	       "untouched", what);
}

static void test_pipe(void)
{
	int p[2];

	if (pipe(p))
		tap_bail("pipe: %s", strerror(errno));
	failed("a pipe", p[0], ENOTTY);
	close(p[0]);
	close(p[1]);
}

static void test_devnull(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		tap_skip("/dev/null: %s", strerror(errno));
		return;
	}
	failed("/dev/null", fd, ENOTTY);
	close(fd);
}

static void test_file(void)
{
	char path[] = "/tmp/kiln-nvme-admin-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		tap_bail("mkstemp: %s", strerror(errno));
	unlink(path);
	failed("a regular file", fd, ENOTTY);
	close(fd);
}

static void test_badfd(void)
{
	failed("fd -1", -1, EBADF);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_pipe);
	TAP_RUN(test_devnull);
	TAP_RUN(test_file);
	TAP_RUN(test_badfd);
	return tap_done();
}
