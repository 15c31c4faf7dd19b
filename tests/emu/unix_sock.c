// SPDX-License-Identifier: GPL-2.0-only
/*
 * UNIX stream sockets: listening, and reading with fd passing.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "unix_sock.h"

int unix_sock_listen(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(addr.sun_path, path);

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 1)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static void take_fds(struct msghdr *mh, int *fds, unsigned int max_fds,
		     unsigned int *nr_fds, bool *truncated)
{
	bool lost = mh->msg_flags & MSG_CTRUNC;
	struct cmsghdr *cmsg;

	for (cmsg = CMSG_FIRSTHDR(mh); cmsg; cmsg = CMSG_NXTHDR(mh, cmsg)) {
		size_t n, i;

		if (cmsg->cmsg_level != SOL_SOCKET ||
		    cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(fd));
			if (*nr_fds < max_fds) {
				fds[(*nr_fds)++] = fd;
			} else {
				lost = true;
				close(fd);
			}
		}
	}
	if (lost && truncated)
		*truncated = true;
}

int unix_sock_recv(int sock, void *buf, size_t len, int *fds,
		   unsigned int max_fds, unsigned int *nr_fds, bool *truncated)
{
	char cbuf[CMSG_SPACE(UNIX_SOCK_MAX_FDS * sizeof(int))];
	size_t done = 0;

	while (done < len) {
		struct iovec iov = { (char *)buf + done, len - done };
		struct msghdr mh = {
			.msg_iov = &iov,
			.msg_iovlen = 1,
			.msg_control = fds ? cbuf : NULL,
			.msg_controllen = fds ? sizeof(cbuf) : 0,
		};
		ssize_t n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ECONNRESET;
		if (fds)
			take_fds(&mh, fds, max_fds, nr_fds, truncated);
		done += (size_t)n;
	}
	return 0;
}
