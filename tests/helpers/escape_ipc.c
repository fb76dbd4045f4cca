// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * escape's SysV IPC ops: another process's shared memory, message queue
 * and semaphores (ipc-make makes them, outside; shm-attach, msg-send,
 * sem-op and shm-rmid reach them by id), and a sandbox's own (ipc-own:
 * made, used and removed inside, as fakeroot does).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include "escape.h"

struct message {
	long type;
	char text[8];
};

static int shm_write(int id)
{
	char *p = shmat(id, NULL, 0);

	if (p == (void *)-1)
		return err();
	memcpy(p, "PWNED", 6);
	return shmdt(p) < 0 ? err() : 0;
}

static int msg_send(int id)
{
	struct message m = { 1, "PWNED" };

	return msgsnd(id, &m, sizeof(m.text), IPC_NOWAIT) < 0 ? err() : 0;
}

static int sem_up(int id)
{
	struct sembuf op = { 0, 1, IPC_NOWAIT };

	return semop(id, &op, 1) < 0 ? err() : 0;
}

/* One of each, mode 0600; their ids in @info, or the first error. */
static int ipc_make(char *info)
{
	int shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	int msg = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	int sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);

	if (shm < 0 || msg < 0 || sem < 0)
		return err();
	snprintf(info, INFO_LEN, "shm=%d msg=%d sem=%d", shm, msg, sem);
	return 0;
}

/* Makes one of each, uses each, removes each: the first error, or 0. */
static int ipc_own(void)
{
	int shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	int msg = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	int sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	int e = 0;

	if (shm < 0 || msg < 0 || sem < 0)
		e = err();
	if (!e)
		e = shm_write(shm);
	if (!e)
		e = msg_send(msg);
	if (!e)
		e = sem_up(sem);
	if (shm >= 0 && shmctl(shm, IPC_RMID, NULL) < 0 && !e)
		e = err();
	if (msg >= 0 && msgctl(msg, IPC_RMID, NULL) < 0 && !e)
		e = err();
	if (sem >= 0 && semctl(sem, 0, IPC_RMID) < 0 && !e)
		e = err();
	return e;
}

int op_ipc(int op, char **arg, char *info)
{
	switch (op) {
	case OP_IPC_MAKE:
		return ipc_make(info);
	case OP_SHM_ATTACH:
		return shm_write(atoi(arg[0]));
	case OP_MSG_SEND:
		return msg_send(atoi(arg[0]));
	case OP_SEM_OP:
		return sem_up(atoi(arg[0]));
	case OP_SHM_RMID:
		return shmctl(atoi(arg[0]), IPC_RMID, NULL) < 0 ? err() : 0;
	case OP_IPC_OWN:
		return ipc_own();
	default:
		return EINVAL;
	}
}
