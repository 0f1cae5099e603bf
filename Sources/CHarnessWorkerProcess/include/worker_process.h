// What starting, reaping and talking to child processes needs from the C library that Swift
// cannot call on Glibc: posix_spawn with its file actions, fork itself, the parent-death
// signal, resource limits, the wait-status macros, and passing a file descriptor over a Unix
// socket (the CMSG_* macros). Header-only: every function is `static inline`, so the target
// has no object file and the fuzz builds need only its include folder.
#ifndef HARNESS_WORKER_PROCESS_H
#define HARNESS_WORKER_PROCESS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#ifdef __APPLE__
#include <TargetConditionals.h>
#endif

// Where this header can start child processes: Linux and macOS. iOS, tvOS, watchOS and
// visionOS start none (their sandboxes forbid it), so harness_spawn is ENOSYS there.
#if defined(__linux__) || (defined(__APPLE__) && TARGET_OS_OSX)
#define HARNESS_CAN_SPAWN 1
#include <spawn.h>
#if defined(__GLIBC__)
// glibc declares these only for _GNU_SOURCE, which this header cannot define: a module that
// sees the C library's headers with other macros than Glibc's own module does not build
// ("'fd_set' ... is not present in definition"). So they are declared here, as glibc does.
extern int pipe2(int ends[2], int flags);
extern int posix_spawn_file_actions_addchdir_np(
    posix_spawn_file_actions_t *actions, const char *directory);
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34)
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif
#endif
#else
#define HARNESS_CAN_SPAWN 0
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

/// Sets this process's core-file size limit to 0, soft and hard, so that a crash writes no
/// core: a decode worker's memory holds archive contents, decrypted records among them. With
/// a limit of 0 Linux writes no core file and hands none to a `core_pattern` pipe (such as
/// systemd-coredump); macOS writes none to /cores. Children inherit the limit. Returns 0, or
/// -1 with errno set.
static inline int harness_disable_core_dumps(void) {
  struct rlimit none = {0, 0};
  return setrlimit(RLIMIT_CORE, &none);
}

/// Limits this process's address space (RLIMIT_AS) to `bytes`, soft and hard, or to the hard
/// limit already in force when that is lower: an allocation past it fails, and the runtime
/// traps with its out-of-memory message. Children inherit the limit. Returns the limit now in
/// force, or 0 with errno set when it cannot be set.
static inline unsigned long long harness_limit_address_space(unsigned long long bytes) {
  struct rlimit current;
  if (getrlimit(RLIMIT_AS, &current) != 0) return 0;
  rlim_t wanted = (rlim_t)bytes;
  if (current.rlim_max != RLIM_INFINITY && current.rlim_max < wanted) wanted = current.rlim_max;
  struct rlimit limit = {wanted, wanted};
  if (setrlimit(RLIMIT_AS, &limit) != 0) return 0;
  return (unsigned long long)wanted;
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

/// Creates a pipe whose two ends are close-on-exec; returns 0, or -1 with errno set.
static inline int harness_pipe(int ends[2]) {
#ifdef __linux__
  return pipe2(ends, O_CLOEXEC);
#else
  int result = pipe(ends);
  if (result == 0) {
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
  }
  return result;
#endif
}

#if defined(__APPLE__)
#include <crt_externs.h>
#endif

/// This process's environment, a NULL-terminated array of `NAME=value` strings.
static inline char *const *harness_environment(void) {
#if defined(__APPLE__)
  return *_NSGetEnviron();
#else
  extern char **environ;
  return environ;
#endif
}

/// Starts `path` with `arguments` and `environment` (both NULL-terminated) in `directory`
/// (the caller's when NULL), with `input`, `output` and `error` as its standard input,
/// output and error, and no other descriptor of the caller's: on Linux every descriptor from
/// 3 up is closed in the child (glibc 2.34 and later), on macOS only the three are inherited
/// (POSIX_SPAWN_CLOEXEC_DEFAULT). The child starts with no signal blocked and every signal's
/// action at its default, whatever the caller ignores or blocks.
///
/// Returns 0 with the child's process ID in `child`, or an errno value (ENOSYS where this
/// platform starts no processes).
static inline int harness_spawn(
    pid_t *child, const char *path, char *const arguments[], char *const environment[],
    const char *directory, int input, int output, int error) {
#if HARNESS_CAN_SPAWN
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  int result = posix_spawn_file_actions_init(&actions);
  if (result != 0) return result;
  result = posix_spawnattr_init(&attributes);
  if (result != 0) {
    posix_spawn_file_actions_destroy(&actions);
    return result;
  }
  int sources[3] = {input, output, error};
  for (int target = 0; target < 3 && result == 0; target++) {
    result = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
  }
  if (result == 0 && directory != NULL) {
    result = posix_spawn_file_actions_addchdir_np(&actions, directory);
  }
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#if defined(__APPLE__)
  flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
  for (int target = 0; target < 3 && result == 0; target++) {
    result = posix_spawn_file_actions_addinherit_np(&actions, target);
  }
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
  if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
  if (result == 0) result = posix_spawnattr_setflags(&attributes, flags);
  if (result == 0) result = posix_spawn(child, path, &actions, &attributes, arguments, environment);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return result;
#else
  (void)child;
  (void)path;
  (void)arguments;
  (void)environment;
  (void)directory;
  (void)input;
  (void)output;
  (void)error;
  return ENOSYS;
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
