package io.sagaflow.gateway.routing;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.SmartLifecycle;

/**
 * The replicas that say they are ready (ADR 0077): every interval the gateway asks each configured replica of each
 * service for its {@code /actuator/health/readiness}, and leaves out of load balancing one that answered no. This is
 * what Kubernetes' readiness probes do for a Service's endpoints, for the lists of replicas the gateway is given
 * itself ({@code spring.cloud.discovery.client.simple.instances}, the local stack's).
 *
 * <p>A replica is left out once it refuses the connection or answers anything but 2xx, and after {@code
 * failureThreshold} probes in a row that got no answer within the time-out (a busy replica is slow, not unready). It
 * is offered again after one 2xx within the time-out: a replica that starts again opens its port as its application
 * finishes starting, with a cold JVM whose first requests took seconds, and it waits until it answers promptly. A
 * replica not asked yet is offered; when every replica of a service is left out, all are offered: a request that
 * might fail is better than one that cannot succeed.
 *
 * <p>The probes rest while the gateway balances nothing: after {@code idleAfter} without a request they stop, and the
 * next request starts them again at once, keeping what the last ones said. A probe costs each replica a request with
 * its database and Hazelcast checks; a probe a second kept every idle service 0.3–1.5 points of a core above what it
 * costs without them, the gateway over one point (ADR 0077).
 */
public final class ReadyReplicas implements SmartLifecycle, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReadyReplicas.class);
    private static final long TENTH_OF_A_SECOND = TimeUnit.MILLISECONDS.toNanos(100);

    private final DiscoveryClient discovery;
    private final List<String> services;
    private final Supplier<HttpClient> newHttpClient;
    private final Duration interval;
    private final Duration timeout;
    private final int failureThreshold;
    private final long idleAfterNanos;
    /** The replicas left out, by {@link UnreachableReplicas#key}. */
    private final Set<String> notReady = ConcurrentHashMap.newKeySet();
    /** Probes in a row that went unanswered, by replica. */
    private final Map<String, Integer> unanswered = new ConcurrentHashMap<>();
    /** Replicas whose last probe is still out; each is asked once at a time. */
    private final Set<String> asking = ConcurrentHashMap.newKeySet();

    private volatile ScheduledExecutorService probes;
    /** When load balancing last asked which replicas are ready ({@link System#nanoTime}, kept to a tenth of a second). */
    private volatile long lastAsked = System.nanoTime();
    /** The probes rest: no round is scheduled until the next request. */
    private final AtomicBoolean resting = new AtomicBoolean();
    /** Built on the first probe: with probing off (Kubernetes), never. */
    private HttpClient http;

    /**
     * @param newHttpClient builds the probes' HTTP client, on the first probe
     * @param interval time between two rounds of probes; zero turns probing off (every replica offered)
     * @param timeout how long one probe waits for its answer
     * @param failureThreshold unanswered probes in a row that leave a replica out
     * @param idleAfter time without a request after which the probes rest until the next one
     */
    public ReadyReplicas(
            DiscoveryClient discovery,
            List<String> services,
            Supplier<HttpClient> newHttpClient,
            Duration interval,
            Duration timeout,
            int failureThreshold,
            Duration idleAfter) {
        this.discovery = discovery;
        this.services = List.copyOf(services);
        this.newHttpClient = newHttpClient;
        this.interval = interval;
        this.timeout = timeout;
        this.failureThreshold = Math.max(1, failureThreshold);
        this.idleAfterNanos = idleAfter.toNanos();
    }

    /** The instances of one service that may be chosen now: those not left out, or all if none is left. */
    public List<ServiceInstance> ready(List<ServiceInstance> instances) {
        asked();
        if (notReady.isEmpty()) {
            return instances;
        }
        List<ServiceInstance> ready = instances.stream()
                .filter(instance -> !notReady.contains(UnreachableReplicas.key(instance)))
                .toList();
        return ready.isEmpty() ? instances : ready;
    }

    /** Notes a request, and wakes the probes if they rest. Written at most ten times a second. */
    private void asked() {
        long now = System.nanoTime();
        if (now - lastAsked > TENTH_OF_A_SECOND) {
            lastAsked = now;
        }
        if (resting.get() && resting.compareAndSet(true, false)) {
            ScheduledExecutorService running = probes;
            if (running != null) {
                log.debug("A request after {} s without one: the readiness probes start again", idleAfterNanos / 1e9);
                scheduleRound(running, 0);
            }
        }
    }

    /**
     * Asks every replica of every service once, but not one whose last probe is still out; each answer is taken as it
     * comes. The result completes when every probe sent has been answered or timed out.
     */
    public CompletableFuture<Void> probeAll() {
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (String service : services) {
            for (ServiceInstance replica : discovery.getInstances(service)) {
                String key = UnreachableReplicas.key(replica);
                if (asking.add(key)) {
                    sent.add(probe(key, replica.getUri()));
                }
            }
        }
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<?> probe(String key, URI replica) {
        try {
            HttpRequest request = HttpRequest.newBuilder(replica.resolve("/actuator/health/readiness"))
                    .timeout(timeout)
                    .GET()
                    .build();
            return http().sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .handle((answer, failure) -> {
                        try {
                            if (failure == null) {
                                answered(key, answer.statusCode());
                            } else {
                                failed(key, failure);
                            }
                        } finally {
                            asking.remove(key);
                        }
                        return null;
                    });
        } catch (RuntimeException e) {
            asking.remove(key);
            throw e;
        }
    }

    private void answered(String replica, int status) {
        unanswered.remove(replica);
        if (status >= 200 && status < 300) {
            if (notReady.remove(replica)) {
                log.info("{} is ready: offered to requests", replica);
            }
        } else if (notReady.add(replica)) {
            log.info("{} answered {} to its readiness probe: left out of load balancing", replica, status);
        }
    }

    private void failed(String replica, Throwable failure) {
        Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof ConnectException || failure instanceof ConnectException) {
            unanswered.remove(replica);
            if (notReady.add(replica)) {
                log.info("{} refused its readiness probe's connection: left out of load balancing", replica);
            }
            return;
        }
        int inARow = unanswered.merge(replica, 1, Integer::sum);
        if (inARow >= failureThreshold && notReady.add(replica)) {
            String last = cause instanceof HttpTimeoutException ? "no answer within " + timeout : cause.toString();
            log.info(
                    "{} left {} readiness probes in a row unanswered (the last: {}): left out of load balancing",
                    replica,
                    inARow,
                    last);
        }
    }

    /** Forgets every replica left out (tests). */
    public void clear() {
        notReady.clear();
        unanswered.clear();
    }

    @Override
    public void start() {
        if (interval.isZero() || interval.isNegative() || probes != null) {
            return;
        }
        ScheduledExecutorService running = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("replica-readiness").daemon().factory());
        probes = running;
        lastAsked = System.nanoTime();
        resting.set(false);
        scheduleRound(running, 0);
    }

    private void scheduleRound(ScheduledExecutorService running, long delayMillis) {
        try {
            running.schedule(() -> round(running), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            // stopped meanwhile
        }
    }

    /** One round of probes, then the next after the interval; or none while nothing is balanced. */
    private void round(ScheduledExecutorService running) {
        if (System.nanoTime() - lastAsked > idleAfterNanos) {
            resting.set(true);
            // A request that came between the check and the flag saw no rest to end: look again.
            if (System.nanoTime() - lastAsked > idleAfterNanos || !resting.compareAndSet(true, false)) {
                log.debug("No request for {} s: the readiness probes rest until the next", idleAfterNanos / 1e9);
                return;
            }
        }
        try {
            probeAll();
        } catch (RuntimeException e) {
            log.warn("Could not probe the replicas' readiness; trying again in {}", interval, e);
        }
        scheduleRound(running, interval.toMillis());
    }

    /** Whether the probes rest for want of requests (tests). */
    boolean resting() {
        return resting.get();
    }

    @Override
    public void stop() {
        ScheduledExecutorService running = probes;
        probes = null;
        if (running != null) {
            running.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return probes != null;
    }

    private synchronized HttpClient http() {
        if (http == null) {
            http = newHttpClient.get();
        }
        return http;
    }

    /** Stops probing and closes the HTTP client it built, if it built one (the context's end). */
    @Override
    public synchronized void close() {
        stop();
        if (http != null) {
            http.close();
        }
    }
}
