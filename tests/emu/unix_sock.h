/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The UNIX stream socket both transports listen on, and receiving a
 * message's bytes with the file descriptors (SCM_RIGHTS) that come along.
 */
#ifndef QAIC_EMU_UNIX_SOCK_H
#define QAIC_EMU_UNIX_SOCK_H

#include <stdbool.h>
#include <stddef.h>

/* Most fds one receive takes; vfio-user offers max_msg_fds 16. */
#define UNIX_SOCK_MAX_FDS	16

/* Bind and listen on @path, replacing a stale socket: the fd or -errno. */
int unix_sock_listen(const char *path);

/*
 * Read exactly @len bytes from @sock. With @fds, the descriptors that
 * arrive (with the first byte, as senders put them) are appended to
 * @fds[*@nr_fds .. @max_fds); any beyond are closed and set *@truncated
 * (if given). Returns 0, -ECONNRESET at end of stream, or -errno.
 */
int unix_sock_recv(int sock, void *buf, size_t len, int *fds,
		   unsigned int max_fds, unsigned int *nr_fds, bool *truncated);

#endif /* QAIC_EMU_UNIX_SOCK_H */
