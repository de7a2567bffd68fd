-- A checkpoint's sequence names a message of one ringbuffer; the shared cluster's ringbuffers live in memory and
-- count from 0 again when the cluster (or a topic's partition) starts again. The publish time of the last message
-- handled ties the checkpoint to its ringbuffer: a consumer resumes from the sequence only if the ringbuffer still
-- holds that message, otherwise from the oldest message held (docs/adr/0089-a-checkpoint-is-resumed-only-where-its-ringbuffer-confirms-it.md).
-- 0: unknown, as for the checkpoints stored before; they are confirmed by nothing and read their topics from the head
-- once.

alter table consumer_checkpoint add column last_publish_time bigint not null default 0;
