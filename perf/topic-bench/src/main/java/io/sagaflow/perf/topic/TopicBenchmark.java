package io.sagaflow.perf.topic;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.topic.ITopic;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.messaging.EventMessage;
import io.sagaflow.framework.messaging.ReliableTopicEventBus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Offers event messages at fixed rates to three kinds of shared topic and measures what a subscriber in another JVM
 * receives: the plain {@code ITopic}, one reliable topic, and the reliable topic split into 8 shards (what the
 * framework ships). The publishing JVM holds one shared-cluster member (as a service does in local mode); a child JVM
 * holds the second member and the subscriber. Publishing mimics the outbox relay: batches every 5 ms, each published
 * and awaited before the next.
 *
 * <p>Run: {@code ./mvnw -q install -DskipTests -pl perf/topic-bench -am && ./mvnw -q -pl perf/topic-bench exec:exec}
 * (arguments through {@code -Dbench.args="--seconds 8 --rates 1000,2000 --out DIR"}).
 */
public final class TopicBenchmark {

    static final String CONTROL_TOPIC = "bench.control";
    static final String STATS_MAP = "bench.stats";
    /** The publisher every benchmark message is sent as; each message's correlation id names its variant and rate. */
    static final String PUBLISHER = "bench";

    static final String PAYLOAD = "{\"orderId\":\"" + UUID.randomUUID() + "\",\"customerId\":\"" + UUID.randomUUID()
            + "\",\"lineItems\":[{\"productId\":\"" + UUID.randomUUID()
            + "\",\"quantity\":2,\"unitPrice\":19.99}],\"total\":39.98,\"shippingAddress\":\"1 Main St, Springfield\"}";

    private TopicBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = 8;
        List<Integer> rates = List.of(1_000, 2_000, 4_000, 8_000);
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--rates" ->
                    rates = java.util.Arrays.stream(args[++i].split(","))
                            .map(String::trim)
                            .map(Integer::parseInt)
                            .toList();
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        SagaflowHazelcastProperties.Shared shared = sharedSettings();
        Process subscriber = startSubscriberJvm(shared);
        HazelcastInstance member = Hazelcast.newHazelcastInstance(memberConfig(shared));
        try {
            awaitMembers(member, 2);
            TimeUnit.SECONDS.sleep(2);
            List<Variant> variants = List.of(
                    new Variant("plain ITopic", 0),
                    new Variant("reliable, 1 shard", 1),
                    new Variant("reliable, 8 shards", 8));
            List<String> rows = new ArrayList<>();
            // Warm-up, not reported: JIT and connections.
            for (Variant variant : variants) {
                publishAt(member, variant, 1_000, 3, "warmup");
            }
            for (int rate : rates) {
                for (Variant variant : variants) {
                    String key = variant.name() + "@" + rate;
                    double achieved = publishAt(member, variant, rate, seconds, key);
                    rows.add(key + "|" + String.format(Locale.ROOT, "%.0f", achieved));
                    TimeUnit.SECONDS.sleep(2);
                }
            }
            member.getTopic(CONTROL_TOPIC).publish("done");
            IMap<String, String> stats = member.getMap(STATS_MAP);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (stats.get("complete") == null && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(200);
            }
            String report = report(rows, stats, seconds);
            System.out.println(report);
            if (out != null) {
                Path file = out.resolve(LocalDate.now() + "-topic-bench.md");
                Files.createDirectories(out);
                Files.writeString(file, report);
                System.out.println("written to " + file);
            }
        } finally {
            member.getLifecycleService().shutdown();
            subscriber.destroy();
        }
    }

    /** Publishes {@code rate} messages per second for {@code seconds}; returns the achieved rate. */
    private static double publishAt(HazelcastInstance member, Variant variant, int rate, int seconds, String key) {
        ReliableTopicEventBus bus = variant.shards() == 0
                ? null
                : new ReliableTopicEventBus(
                        member, "bench.r" + variant.shards(), variant.shards(), Duration.ofSeconds(30));
        ITopic<EventMessage> plain = member.getTopic("bench.plain");
        long tickNanos = TimeUnit.MILLISECONDS.toNanos(5);
        long total = (long) rate * seconds;
        long sent = 0;
        long start = System.nanoTime();
        int stream = 0;
        while (sent < total) {
            long due = Math.min(total, (System.nanoTime() - start) * rate / 1_000_000_000L + rate / 200);
            List<EventMessage> batch = new ArrayList<>();
            while (sent < due) {
                batch.add(new EventMessage(
                        UUID.randomUUID().toString(),
                        PUBLISHER,
                        "order-" + (stream++ % 1_000),
                        1,
                        "OrderPlaced",
                        1,
                        System.nanoTime() / 1_000,
                        key,
                        null,
                        null,
                        null,
                        PAYLOAD));
                sent++;
            }
            if (!batch.isEmpty()) {
                if (bus == null) {
                    batch.forEach(plain::publish);
                } else {
                    bus.publish(batch);
                }
            }
            long next = start + ((System.nanoTime() - start) / tickNanos + 1) * tickNanos;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(sleep);
            }
        }
        return total / ((System.nanoTime() - start) / 1e9);
    }

    private static String report(List<String> rows, IMap<String, String> stats, int seconds) {
        StringBuilder md = new StringBuilder();
        md.append("# Shared topic benchmark\n\n")
                .append(
                        "Two shared-cluster members in two JVMs on 127.0.0.1 (publisher + member, member + subscriber), ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ")
                .append(Runtime.version())
                .append(", Hazelcast 5.7; ")
                .append(seconds)
                .append(" s per level after a warm-up; batches every 5 ms as the outbox relay publishes. ")
                .append("Latency: publish call to subscriber callback (monotonic clock, same host). ")
                .append("Reliable topics run with TTL 0 here to measure raw capacity; the shipped TTL caps a shard at ")
                .append("capacity / TTL (ADR 0005).\n\n")
                .append("| topic | offered msg/s | published msg/s | received | lost | p50 ms | p99 ms | max ms |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (String row : rows) {
            String key = row.substring(0, row.indexOf('|'));
            String achieved = row.substring(row.indexOf('|') + 1);
            String[] s = stats.getOrDefault(key, "0|0|0|0|0").split("\\|");
            long offered = Long.parseLong(key.substring(key.indexOf('@') + 1)) * seconds;
            long received = Long.parseLong(s[0]);
            md.append("| ")
                    .append(key, 0, key.indexOf('@'))
                    .append(" | ")
                    .append(key.substring(key.indexOf('@') + 1))
                    .append(" | ")
                    .append(achieved)
                    .append(" | ")
                    .append(received)
                    .append(" | ")
                    .append(String.format(Locale.ROOT, "%.2f %%", 100.0 * (offered - received) / offered))
                    .append(" | ")
                    .append(s[1])
                    .append(" | ")
                    .append(s[2])
                    .append(" | ")
                    .append(s[3])
                    .append(" |\n");
        }
        return md.toString();
    }

    static SagaflowHazelcastProperties.Shared sharedSettings() {
        SagaflowHazelcastProperties.Shared shared = new SagaflowHazelcastProperties.Shared();
        shared.setClusterName("topic-bench-" + UUID.randomUUID());
        shared.setPort(47_000);
        shared.setPortCount(10);
        shared.setBindInterface("127.0.0.1");
        shared.setMembers(List.of("127.0.0.1"));
        shared.getTopic().setPrefix("bench");
        shared.getTopic().setCapacity(100_000);
        shared.getTopic().setTtl(Duration.ZERO);
        shared.getProperties().put("hazelcast.wait.seconds.before.join", "0");
        shared.getProperties().put("hazelcast.max.wait.seconds.before.join", "0");
        return shared;
    }

    static Config memberConfig(SagaflowHazelcastProperties.Shared shared) {
        Config config = HazelcastConfigs.sharedMember(shared, null);
        // Reliable topics of both kinds used here: bench.r1.* and bench.r8.*.
        SagaflowHazelcastProperties.Topic r1 = new SagaflowHazelcastProperties.Topic();
        r1.setPrefix("bench.r1");
        r1.setCapacity(100_000);
        r1.setTtl(Duration.ZERO);
        SagaflowHazelcastProperties.Topic r8 = new SagaflowHazelcastProperties.Topic();
        r8.setPrefix("bench.r8");
        r8.setCapacity(100_000);
        r8.setTtl(Duration.ZERO);
        HazelcastConfigs.addTopic(config, r1, null);
        HazelcastConfigs.addTopic(config, r8, null);
        return config;
    }

    static void awaitMembers(HazelcastInstance member, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (member.getCluster().getMembers().size() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the subscriber JVM did not join");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static Process startSubscriberJvm(SagaflowHazelcastProperties.Shared shared) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-Xmx512m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        TopicSubscriber.class.getName(),
                        shared.getClusterName())
                .inheritIO()
                .start();
    }

    record Variant(String name, int shards) {}
}
