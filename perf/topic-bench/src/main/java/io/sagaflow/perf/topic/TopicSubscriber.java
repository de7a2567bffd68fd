package io.sagaflow.perf.topic;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.topic.ReliableMessageListener;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.messaging.EventMessage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/** The benchmark's second JVM: a shared-cluster member that subscribes to every topic and records latencies. */
public final class TopicSubscriber {

    private static final Map<String, Recorder> RECORDERS = new ConcurrentHashMap<>();

    private TopicSubscriber() {}

    public static void main(String[] args) throws InterruptedException {
        SagaflowHazelcastProperties.Shared shared = TopicBenchmark.sharedSettings();
        shared.setClusterName(args[0]);
        HazelcastInstance member = Hazelcast.newHazelcastInstance(TopicBenchmark.memberConfig(shared));
        Consumer<EventMessage> record = message -> RECORDERS
                .computeIfAbsent(message.correlationId(), key -> new Recorder())
                .add(System.nanoTime() / 1_000 - message.occurredAtMicros());
        member.<EventMessage>getTopic("bench.plain").addMessageListener(m -> record.accept(m.getMessageObject()));
        member.<EventMessage>getReliableTopic("bench.r1." + TopicBenchmark.PUBLISHER + ".0")
                .addMessageListener(new FromTail(record));
        for (int shard = 0; shard < 8; shard++) {
            member.<EventMessage>getReliableTopic("bench.r8." + TopicBenchmark.PUBLISHER + "." + shard)
                    .addMessageListener(new FromTail(record));
        }
        CountDownLatch done = new CountDownLatch(1);
        member.getTopic(TopicBenchmark.CONTROL_TOPIC).addMessageListener(m -> done.countDown());
        done.await();
        Thread.sleep(1_000);
        var stats = member.<String, String>getMap(TopicBenchmark.STATS_MAP);
        RECORDERS.forEach((key, recorder) -> stats.put(key, recorder.summary()));
        stats.put("complete", "yes");
        Thread.sleep(2_000);
        member.getLifecycleService().shutdown();
    }

    private static final class Recorder {
        private final List<Long> micros = new ArrayList<>();

        synchronized void add(long latencyMicros) {
            micros.add(latencyMicros);
        }

        synchronized String summary() {
            long[] sorted = micros.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(sorted);
            return sorted.length
                    + "|" + ms(percentile(sorted, 0.50))
                    + "|" + ms(percentile(sorted, 0.99))
                    + "|" + ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
        }

        private static long percentile(long[] sorted, double p) {
            return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
        }

        private static String ms(long micros) {
            return String.format(Locale.ROOT, "%.2f", micros / 1_000.0);
        }
    }

    private record FromTail(Consumer<EventMessage> record) implements ReliableMessageListener<EventMessage> {
        @Override
        public void onMessage(com.hazelcast.topic.Message<EventMessage> message) {
            record.accept(message.getMessageObject());
        }

        @Override
        public long retrieveInitialSequence() {
            return -1;
        }

        @Override
        public void storeSequence(long sequence) {}

        @Override
        public boolean isLossTolerant() {
            return true;
        }

        @Override
        public boolean isTerminal(Throwable failure) {
            return false;
        }
    }
}
