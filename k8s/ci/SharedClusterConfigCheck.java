import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientReliableTopicConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.ReliableTopicConfig;
import com.hazelcast.config.RingbufferConfig;
import com.hazelcast.config.YamlConfigBuilder;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.HazelcastNames;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Checks the shared cluster's hazelcast.yaml, as the Helm chart renders it, against the framework: Hazelcast loads the
 * file (and validates it against its own schema), and every shard's ringbuffer and reliable topic must be configured
 * as {@link HazelcastConfigs#addTopic} configures an in-process shared member, for the topic settings the services are
 * given. Run by .ci/validate-k8s with the framework's classes and dependencies on the class path.
 *
 * <p>Arguments: directories, one per rendering, each with the rendered hazelcast.yaml and topic.args: the cluster name,
 * topic prefix, shards, capacity and TTL seconds the services are given (written by check_manifests.py). A directory
 * named {@code tampered-*} holds a deliberately wrong copy and must be refused, which shows the check can fail.
 */
public final class SharedClusterConfigCheck {

    /** The publishers of the contracts (each contract's PUBLISHER): each has its own topics (ADR 0019). */
    private static final List<String> PUBLISHERS = List.of("account", "inventory", "order", "payment");

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: SharedClusterConfigCheck <dir with hazelcast.yaml, topic.args>...");
        }
        boolean ok = true;
        for (String arg : args) {
            Path dir = Path.of(arg);
            boolean tampered = dir.getFileName().toString().startsWith("tampered-");
            List<String> problems = check(dir);
            String name = dir.getFileName().toString();
            if (tampered) {
                System.out.println("   " + name + ": " + (problems.isEmpty()
                        ? "a wrong configuration went unnoticed"
                        : "refused, as it should be (" + problems.getFirst() + ")"));
            } else {
                problems.forEach(problem -> System.out.println("   " + name + ": " + problem));
            }
            ok &= problems.isEmpty() != tampered;
        }
        System.exit(ok ? 0 : 1);
    }

    private static List<String> check(Path dir) throws Exception {
        String[] settings = Files.readString(dir.resolve("topic.args")).trim().split("\\s+");
        Config members;
        try (InputStream in = Files.newInputStream(dir.resolve("hazelcast.yaml"))) {
            members = new YamlConfigBuilder(in).build();
        }
        var shared = new SagaflowHazelcastProperties().getShared();
        shared.setClusterName(settings[0]);
        var topic = shared.getTopic();
        topic.setPrefix(settings[1]);
        topic.setShards(Integer.parseInt(settings[2]));
        topic.setCapacity(Integer.parseInt(settings[3]));
        topic.setTtl(Duration.ofSeconds(Long.parseLong(settings[4])));

        Config expected = new Config();
        HazelcastConfigs.addTopic(expected, topic, null);
        ClientConfig client = HazelcastConfigs.sharedClient(shared, null);

        List<String> problems = new ArrayList<>();
        check(problems, "cluster name", shared.getClusterName(), members.getClusterName());
        check(problems, "client cluster name", client.getClusterName(), members.getClusterName());
        check(problems, "kubernetes join", true, members.getNetworkConfig().getJoin().getKubernetesConfig().isEnabled());
        List<String> topics = new ArrayList<>();
        for (String publisher : PUBLISHERS) {
            for (int shard = 0; shard < topic.getShards(); shard++) {
                topics.add(topic.getPrefix() + "." + publisher + "." + shard);
            }
        }
        for (String name : topics) {
            // The ringbuffer is named _hz_rb_<topic>, but Hazelcast takes its settings from the config named <topic>.
            String ringbuffer = HazelcastNames.RELIABLE_TOPIC_RINGBUFFER_PREFIX + name;
            RingbufferConfig want = expected.findRingbufferConfig(name);
            RingbufferConfig got = members.findRingbufferConfig(name);
            check(problems, ringbuffer + " capacity", want.getCapacity(), got.getCapacity());
            check(problems, ringbuffer + " time-to-live", want.getTimeToLiveSeconds(), got.getTimeToLiveSeconds());
            check(problems, ringbuffer + " backup-count", want.getBackupCount(), got.getBackupCount());
            check(problems, ringbuffer + " async-backup-count", want.getAsyncBackupCount(), got.getAsyncBackupCount());
            check(problems, ringbuffer + " in-memory-format", want.getInMemoryFormat(), got.getInMemoryFormat());
            ReliableTopicConfig wantTopic = expected.findReliableTopicConfig(name);
            ReliableTopicConfig gotTopic = members.findReliableTopicConfig(name);
            check(problems, name + " overload policy", wantTopic.getTopicOverloadPolicy(),
                    gotTopic.getTopicOverloadPolicy());
            check(problems, name + " read batch size", wantTopic.getReadBatchSize(), gotTopic.getReadBatchSize());
            ClientReliableTopicConfig clientTopic = client.getReliableTopicConfig(name);
            check(problems, name + " client overload policy", clientTopic.getTopicOverloadPolicy(),
                    gotTopic.getTopicOverloadPolicy());
        }
        if (problems.isEmpty() && !dir.getFileName().toString().startsWith("tampered-")) {
            System.out.printf(
                    "   %s: %s, %d shards of %s, capacity %d, TTL %d s: as the framework configures them%n",
                    dir.getFileName(), members.getClusterName(), topic.getShards(), topic.getPrefix(),
                    topic.getCapacity(), topic.getTtl().toSeconds());
        }
        return problems;
    }

    private static void check(List<String> problems, String what, Object want, Object got) {
        if (!Objects.equals(want, got)) {
            problems.add(what + ": the framework expects " + want + ", hazelcast.yaml has " + got);
        }
    }
}
