// What the decode worker's fork server needs from the C library that Swift cannot call on
// Glibc: fork itself, the parent-death signal, the wait-status macros, and passing a file
// descriptor over a Unix socket (the CMSG_* macros). Header-only: every function is
// `static inline`, so the target has no object file and the fuzz builds need only its
// include folder.
#ifndef HARNESS_WORKER_PROCESS_H
#define HARNESS_WORKER_PROCESS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/// Forks the calling process: 0 in the child, the child's process ID in the parent, -1 on
/// failure with errno set. Only safe while the caller is single-threaded.
static inline pid_t harness_fork(void) { return fork(); }

/// Asks the kernel to send `signal` to this process when its parent exits (Linux); returns
/// 0, or -1 with errno set (always -1 with ENOSYS elsewhere).
static inline int harness_set_parent_death_signal(int signal) {
#ifdef __linux__
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
#else
  (void)signal;
  errno = ENOSYS;
  return -1;
#endif
}

/// The signal that ended a process, from a `waitpid` status; 0 when no signal ended it.
static inline int harness_wait_status_signal(int status) {
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

/// Whether a `waitpid` status says the process exited (rather than died of a signal).
static inline int harness_wait_status_exited(int status) { return WIFEXITED(status) ? 1 : 0; }

/// The exit status from a `waitpid` status of a process that exited.
static inline int harness_wait_status_exit_code(int status) { return WEXITSTATUS(status); }

/// Creates a connected pair of Unix stream sockets, close-on-exec where the system has the
/// flag; returns 0, or -1 with errno set.
static inline int harness_socket_pair(int pair[2]) {
#ifdef SOCK_CLOEXEC
  return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair);
#else
  int result = socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
  if (result == 0) {
    fcntl(pair[0], F_SETFD, FD_CLOEXEC);
    fcntl(pair[1], F_SETFD, FD_CLOEXEC);
  }
  return result;
#endif
}

/// Sets up `message` over one buffer, `vector`, and a control area of `control_size` bytes,
/// zeroing the message and the control area: the part a send and a receive share.
static inline void harness_message_init(
    struct msghdr *message, struct iovec *vector, void *control, size_t control_size) {
  memset(control, 0, control_size);
  memset(message, 0, sizeof(*message));
  message->msg_iov = vector;
  message->msg_iovlen = 1;
  message->msg_control = control;
  message->msg_controllen = control_size;
}

/// Sends `count` bytes on a Unix socket with `descriptor` attached (SCM_RIGHTS) to the first
/// byte. Returns the bytes sent (possibly fewer than `count`), or -1 with errno set.
static inline ssize_t harness_send_with_descriptor(
    int socket, const void *bytes, size_t count, int descriptor) {
  union {
    struct cmsghdr header;
    char space[CMSG_SPACE(sizeof(int))];
  } control;
  struct iovec vector = {.iov_base = (void *)bytes, .iov_len = count};
  struct msghdr message;
  harness_message_init(&message, &vector, control.space, sizeof(control.space));
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
  ssize_t sent;
  do {
    sent = sendmsg(socket, &message, 0);
  } while (sent < 0 && errno == EINTR);
  return sent;
}

/// Receives up to `capacity` bytes from a Unix socket, and the one descriptor attached to
/// them, if any, into `descriptor` (-1 when none came; close-on-exec where the system has
/// MSG_CMSG_CLOEXEC). Any further descriptors are closed. Returns the bytes received (0 at
/// the end of input), or -1 with errno set.
static inline ssize_t harness_receive_with_descriptor(
    int socket, void *bytes, size_t capacity, int *descriptor) {
  *descriptor = -1;
  union {
    struct cmsghdr header;
    char space[CMSG_SPACE(sizeof(int) * 4)];
  } control;
  struct iovec vector = {.iov_base = bytes, .iov_len = capacity};
  struct msghdr message;
  harness_message_init(&message, &vector, control.space, sizeof(control.space));
  int flags = 0;
#ifdef MSG_CMSG_CLOEXEC
  flags |= MSG_CMSG_CLOEXEC;
#endif
  ssize_t received;
  do {
    received = recvmsg(socket, &message, flags);
  } while (received < 0 && errno == EINTR);
  if (received < 0) return received;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    size_t length = header->cmsg_len - CMSG_LEN(0);
    size_t count = length / sizeof(int);
    for (size_t index = 0; index < count; index++) {
      int received_descriptor;
      memcpy(&received_descriptor, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
      if (*descriptor < 0) {
        *descriptor = received_descriptor;
      } else {
        close(received_descriptor);
      }
    }
  }
  return received;
}

#endif
