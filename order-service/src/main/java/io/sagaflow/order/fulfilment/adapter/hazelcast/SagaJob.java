package io.sagaflow.order.fulfilment.adapter.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.RoutingMode;
import com.hazelcast.client.properties.ClientProperty;
import com.hazelcast.cluster.Address;
import com.hazelcast.core.EntryEventType;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.pipeline.JournalInitialPosition;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.ServiceFactories;
import com.hazelcast.jet.pipeline.ServiceFactory;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.Sinks;
import com.hazelcast.jet.pipeline.Sources;
import com.hazelcast.jet.pipeline.StreamSource;
import com.hazelcast.jet.pipeline.StreamStage;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.order.fulfilment.application.SagaInboxEntry;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The saga as a Jet job on the order service's cluster: it reads the inbox's event journal on every member (each
 * member its own partitions), groups the messages by order so one order's messages are handled one at a time, in
 * order, on the member whose partition holds them, and hands them in batches to that member's {@link SagaRunner}. At-least-once with snapshots every
 * {@code sagaflow.order.saga.snapshot-interval} (5 s): after a member fails, the job restarts from the last snapshot on the remaining members, and a replica
 * that joins restarts it to take part once its runner is registered. Every replica submits the job if absent; one runs.
 * A replica submits it through a client of the master that lives only for the submission, so that no replica waits
 * for the job's end (ADR 0079).
 */
public final class SagaJob {

    private static final Logger log = LoggerFactory.getLogger(SagaJob.class);
    /** How many times a call to the job's coordinator is made before the member gives up ({@link #answered}). */
    static final int CALL_ATTEMPTS = 6;
    /** Each member's runner, by member name: completed when the member's application registers it. */
    private static final Map<String, CompletableFuture<SagaRunner>> RUNNERS = new ConcurrentHashMap<>();
    /** Members on which the job's processors asked for the runner, registered or not yet. */
    private static final Set<String> JOINED = ConcurrentHashMap.newKeySet();

    private SagaJob() {}

    /**
     * How the job runs on each member.
     *
     * @param parallelism saga processors (and lanes) per member
     * @param batchSize the most messages one processor hands its lane at once
     * @param snapshotInterval how often the job records its place in the journal
     * @param journalReaders processors reading the member's partitions of the journal; 0 leaves it to Hazelcast,
     *     whose map journal source takes two (ADR 0038)
     * @param callTimeout how long a call to the job's coordinator (look-up, submission, restart) may go unanswered
     *     before it is made again (ADR 0075)
     */
    public record Settings(
            int parallelism, int batchSize, Duration snapshotInterval, int journalReaders, Duration callTimeout) {

        /** The call time-out when none is given. */
        public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);

        public Settings {
            if (parallelism < 1 || batchSize < 1 || journalReaders < 0) {
                throw new IllegalArgumentException("parallelism and batch size must be at least 1, journal readers"
                        + " at least 0: " + parallelism + ", " + batchSize + ", " + journalReaders);
            }
            if (snapshotInterval.isNegative() || snapshotInterval.isZero()) {
                throw new IllegalArgumentException("snapshot interval must be positive: " + snapshotInterval);
            }
            if (callTimeout.isNegative() || callTimeout.isZero()) {
                throw new IllegalArgumentException("call time-out must be positive: " + callTimeout);
            }
        }

        public Settings(int parallelism, int batchSize, Duration snapshotInterval, int journalReaders) {
            this(parallelism, batchSize, snapshotInterval, journalReaders, DEFAULT_CALL_TIMEOUT);
        }
    }

    /** An inbox message as the job carries it. */
    public record InboxItem(InboxKey key, SagaInboxEntry entry) implements Serializable {}

    /**
     * The pipeline, from its source and sink, so a test can feed it. Each processor takes what has queued up for it,
     * up to {@code batchSize} messages, and hands it to its {@link SagaLane} as one batch (ADR 0021, 0034). The lane
     * handles its batches one after the other, so an order's messages, which all reach the same processor, are handled
     * one at a time and in order. The sink only ends the pipeline: one instance per member does.
     */
    public static Pipeline pipeline(
            StreamSource<InboxItem> inbox, ServiceFactory<?, SagaLane> lanes, Sink<Object> done, Settings settings) {
        Pipeline pipeline = Pipeline.create();
        StreamStage<InboxItem> read = pipeline.readFrom(inbox).withoutTimestamps();
        if (settings.journalReaders() > 0) {
            read.setLocalParallelism(settings.journalReaders());
        }
        read.groupingKey(SagaJob::routingKey)
                .<SagaLane, Object>mapUsingServiceAsyncBatched(
                        lanes,
                        settings.batchSize(),
                        (lane, orderIds, items) -> lane.handle(items.stream()
                                .map(item -> new SagaRunner.Delivery(item.key().messageId(), item.entry()))
                                .toList()))
                .setLocalParallelism(settings.parallelism())
                .writeTo(done)
                .setLocalParallelism(1);
        return pipeline;
    }

    /**
     * What a message is grouped by on its way to the saga processors: its order's partition key, by which the inbox
     * places it and the saga's timer lives. Jet sends each message to a processor on the member that owns the key's
     * partition, which is the member that read it from its part of the journal: it does not cross to another replica,
     * and removing it from the inbox and setting its saga's timer stay on that member. Grouped by the order's
     * {@code UUID}, whose partition is another one, a message went to whichever member owned that: with two replicas
     * about half of them crossed (ADR 0058).
     */
    static String routingKey(InboxItem item) {
        return item.key().getPartitionKey();
    }

    /** The inbox's journal: every message added, from the oldest still held. */
    public static StreamSource<InboxItem> inboxJournal() {
        return Sources.<InboxItem, InboxKey, SagaInboxEntry>mapJournal(
                SagaNames.INBOX,
                JournalInitialPosition.START_FROM_OLDEST,
                event -> new InboxItem(event.getKey(), event.getNewValue()),
                event -> event.getType() == EntryEventType.ADDED);
    }

    /**
     * A lane of its own for each processor, to the runner of whichever member it runs on. The processors stay
     * cooperative: they only submit batches and collect results, and the lanes' threads do the blocking (ADR 0034).
     */
    public static ServiceFactory<?, SagaLane> memberLanes() {
        return ServiceFactories.nonSharedService(
                context -> new SagaLane(
                        runnerOf(context.hazelcastInstance().getName()), "saga-lane-" + context.globalProcessorIndex()),
                SagaLane::close);
    }

    /**
     * The runner of {@code member}, when it is registered. The job's processors on a member that just joined may start
     * before its application context registered it: when another member's death restarts the job meanwhile, or when
     * Jet's rescale comes before the replica's own restart ({@link #start}). Their lanes then wait for it, on their own
     * threads, and the job goes on without them (ADR 0075).
     */
    private static CompletableFuture<SagaRunner> runnerOf(String member) {
        JOINED.add(member);
        return RUNNERS.computeIfAbsent(member, name -> new CompletableFuture<>());
    }

    /**
     * Makes {@code runner} the one the job uses on {@code member}, and submits the job unless it runs.
     *
     * <p>A replica that joins a cluster where the job already runs has no part in it: the job runs on the members it
     * started on until it is restarted. Jet restarts it to include a joined member after its scale-up delay; the order
     * service sets that long, and the replica restarts the job itself here, once its runner is registered, so no saga
     * waits for a replica whose application is still starting (ADR 0075). It does not when the job's processors already
     * asked for this member's runner: then the job runs here.
     */
    public static Job start(HazelcastInstance member, SagaRunner runner, Settings settings) {
        RUNNERS.compute(
                        member.getName(),
                        (name, waiting) -> waiting == null || waiting.isDone() ? new CompletableFuture<>() : waiting)
                .complete(runner);
        JetService jet = member.getJet();
        Duration timeout = settings.callTimeout();
        Job running = answered("look-up of the saga job", timeout, () -> {
            Job job = jet.getJob(SagaNames.JOB);
            return job == null || job.getStatus().isTerminal() ? null : job;
        });
        if (running != null) {
            includeThisMember(member.getName(), running, timeout);
            return running;
        }
        JobConfig config = new JobConfig()
                .setName(SagaNames.JOB)
                .setProcessingGuarantee(ProcessingGuarantee.AT_LEAST_ONCE)
                .setSnapshotIntervalMillis(settings.snapshotInterval().toMillis());
        Pipeline pipeline = pipeline(inboxJournal(), memberLanes(), Sinks.noop(), settings);
        long jobId = answered(
                "submission of the saga job", timeout, () -> submitThroughClient(member, pipeline, config, timeout));
        return answered("look-up of the submitted saga job", timeout, () -> jet.getJob(jobId));
    }

    /**
     * Submits the job if absent through a client of the cluster's master that is shut down once the submission is
     * answered, and returns the job's id.
     *
     * <p>Jet's proxy of a job it submitted waits for the job's end, and makes that wait again on every new master at
     * once; so does the member that waits on a client's behalf. Held by a replica that outlived the master, such a wait
     * reached the new master before its partitions were safe, and Jet then started the job only after its fixed 2 s
     * retry: after a master's stop, the job's execution started 2.3–3.2 s after the new master's claim, against
     * 0.8–1.3 s when the new master found the job by its own scan (ADR 0072). Through a client of the master, the
     * client's wait ends with the client and the master's on its behalf with the master (ADR 0079).
     */
    static long submitThroughClient(HazelcastInstance member, Pipeline pipeline, JobConfig config, Duration timeout) {
        // The first member of the list is the oldest, the master.
        Address master = member.getCluster().getMembers().iterator().next().getAddress();
        // An IPv6 address goes in brackets before its port.
        String host = master.getHost().contains(":") ? "[" + master.getHost() + "]" : master.getHost();
        ClientConfig client = HazelcastConfigs.client(
                member.getConfig().getClusterName(), member.getName() + "-saga-job-submission-" + UUID.randomUUID());
        long seconds = Math.max(1, timeout.toSeconds());
        client.setProperty(ClientProperty.INVOCATION_TIMEOUT_SECONDS.getName(), Long.toString(seconds));
        client.getNetworkConfig()
                .addAddress(host + ":" + master.getPort())
                .getClusterRoutingConfig()
                .setRoutingMode(RoutingMode.SINGLE_MEMBER);
        client.getConnectionStrategyConfig()
                .getConnectionRetryConfig()
                .setClusterConnectTimeoutMillis(timeout.toMillis());
        HazelcastInstance submitter = HazelcastClient.newHazelcastClient(client);
        try {
            return submitter.getJet().newJobIfAbsent(pipeline, config).getId();
        } finally {
            submitter.shutdown();
        }
    }

    /**
     * Restarts the running {@code job}, gracefully (from a last snapshot), unless its processors already run on
     * {@code member}. A job that is not running (starting, restarting, or in a scale-up) is left alone: its next
     * execution is planned on the members there are, this one among them.
     */
    private static void includeThisMember(String member, Job job, Duration timeout) {
        if (JOINED.contains(member)) {
            return;
        }
        try {
            boolean restarted = answered("restart of the saga job", timeout, () -> {
                if (job.getStatus() != JobStatus.RUNNING) {
                    return false;
                }
                job.restart();
                return true;
            });
            if (restarted) {
                log.info("Restarted the saga job to take member {} in", member);
            }
        } catch (IllegalStateException notRunning) {
            log.debug("The saga job was not running, its next execution takes member {} in", member, notRunning);
        } catch (RuntimeException e) {
            log.warn(
                    "Could not restart the saga job to take member {} in; Jet rescales it after its scale-up delay",
                    member,
                    e);
        }
    }

    /**
     * What {@code call} to the job's coordinator returns, made again when it goes unanswered for {@code timeout}, up to
     * {@value #CALL_ATTEMPTS} times. Hazelcast 5.7 can leave a call unanswered for ever: its coordinator keeps each
     * job's submitter's wait for the job's end under the submitter's address and call id, also after the submitter
     * died, and skips a new call from that address with that id as a duplicate, while telling the caller that it
     * runs. A replica started again on the address of the one that submitted the job (a container restarted in its
     * pod, a replica of the local stack) hung in its start that way. A call made again takes the next id. Every call
     * made here may be made twice: a look-up, a submission by name, a restart of a running job.
     */
    static <T> T answered(String what, Duration timeout, Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            CompletableFuture<T> answer = new CompletableFuture<>();
            Thread.ofVirtual().name("saga-job-call").start(() -> {
                try {
                    answer.complete(call.get());
                } catch (Throwable e) {
                    answer.completeExceptionally(e);
                }
            });
            try {
                return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (attempt == CALL_ATTEMPTS) {
                    throw new Unanswered("the " + what + " went unanswered " + CALL_ATTEMPTS + " times for " + timeout);
                }
                log.warn(
                        "The {} went unanswered for {}; making it again ({} of {})",
                        what,
                        timeout,
                        attempt + 1,
                        CALL_ATTEMPTS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException failure) {
                    throw failure;
                }
                throw new IllegalStateException("the " + what + " failed", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Unanswered("interrupted while waiting for the " + what);
            }
        }
    }

    /** A call to the job's coordinator that was never answered. */
    static final class Unanswered extends RuntimeException {

        Unanswered(String message) {
            super(message);
        }
    }

    /** Forgets {@code member}'s runner (on shutdown). */
    public static void stop(HazelcastInstance member) {
        RUNNERS.remove(member.getName());
        JOINED.remove(member.getName());
    }
}
