package io.sagaflow.system;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.framework.hazelcast.HazelcastConfigs;
import io.sagaflow.framework.hazelcast.SagaflowHazelcastProperties;
import io.sagaflow.framework.test.hazelcast.HazelcastTestClusters;
import io.sagaflow.framework.test.postgres.TestDatabase;
import io.sagaflow.framework.test.postgres.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The whole system for a test: one PostgreSQL database per service, the four services as separate processes (as
 * many order-service replicas as asked), each with its per-service cluster and a client of the shared cluster, whose
 * two members run in this test JVM, so the test can watch and replay the events between services and take a member
 * away while they flow. Optionally API gateways in front of them, also separate processes, whose members form one
 * gateway cluster of their own.
 */
final class SagaflowSystem implements AutoCloseable {

    /** Orders per page of each stream the order service's audit merges: small, so a scenario spans many pages. */
    static final int AUDIT_PAGE_SIZE = 25;

    final ServiceProcess account;
    final ServiceProcess inventory;
    final ServiceProcess payment;
    final List<ServiceProcess> orders = new ArrayList<>();
    /** The gateways, each routing to every service replica started with the system. */
    final List<ServiceProcess> gateways = new ArrayList<>();

    /** How long the shared cluster's topics keep a message. */
    static final Duration TOPIC_TTL = Duration.ofSeconds(10);

    /** The shared cluster's first member, which the test's own subscribers use; it runs until {@link #close}. */
    final HazelcastInstance sharedMember;
    /** The shared cluster's second member, which a test may terminate while events flow. */
    final HazelcastInstance secondSharedMember;

    final SagaflowHazelcastProperties.Shared shared;

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final Path logs;
    private final Map<String, TestDatabase> databases = new LinkedHashMap<>();
    private final Duration sagaTimeout;
    private final Duration compensationTimeout;
    private final Map<String, Integer> clusterPorts = new LinkedHashMap<>();
    private final int gatewayClusterPort = randomPortBase();
    private int orderReplicas;

    private SagaflowSystem(
            int orderReplicas,
            Duration sagaTimeout,
            Duration compensationTimeout,
            int gatewayCount,
            Map<String, String> gatewaySettings)
            throws Exception {
        this.sagaTimeout = sagaTimeout;
        this.compensationTimeout = compensationTimeout;
        this.logs = Path.of("target", "system-tests", run);
        Files.createDirectories(logs);
        int sharedPort = randomPortBase();
        shared = new SagaflowHazelcastProperties.Shared();
        shared.setClusterName("shared-" + run);
        shared.setPort(sharedPort);
        // Two members, as the services' clients find them: each takes the next free port of the two.
        shared.setPortCount(2);
        shared.setBindInterface("127.0.0.1");
        shared.setPartitionCount(23);
        // A topic keeps a message 10 s, not 30: a scenario can keep a consumer away for longer than that, so that it
        // must ask the publisher for what expired meanwhile (ADR 0093), in a fraction of the saga's time-out.
        shared.getTopic().setTtl(TOPIC_TTL);
        shared.getProperties().putAll(HazelcastTestClusters.FAST_JOIN);
        for (String service : List.of("account", "inventory", "order", "payment")) {
            databases.put(service, TestPostgres.newDatabase());
            clusterPorts.put(service, randomPortBase());
        }
        account = process("account", 0);
        inventory = process("inventory", 0);
        payment = process("payment", 0);
        for (int i = 0; i < orderReplicas; i++) {
            orders.add(process("order", i));
        }
        this.orderReplicas = orderReplicas;
        for (int i = 0; i < gatewayCount; i++) {
            gateways.add(gateway(i, gatewaySettings));
        }
        HazelcastInstance member = null;
        HazelcastInstance second = null;
        try {
            // The shared cluster first: the services connect to it as clients while they start. The gateways start
            // with the services (they know their ports already): they need none to be ready.
            member = Hazelcast.newHazelcastInstance(HazelcastConfigs.sharedMember(shared, null));
            second = Hazelcast.newHazelcastInstance(HazelcastConfigs.sharedMember(shared, null));
            for (ServiceProcess process : allWithGateways()) {
                process.start();
            }
            for (ServiceProcess process : allWithGateways()) {
                process.awaitReady(Duration.ofMinutes(3));
            }
        } catch (Exception | Error e) {
            // Nobody gets a system to close: stop what was started here.
            for (ServiceProcess process : allWithGateways()) {
                process.stop();
            }
            for (HazelcastInstance started : new HazelcastInstance[] {member, second}) {
                if (started != null) {
                    started.getLifecycleService().terminate();
                }
            }
            throw e;
        }
        sharedMember = member;
        secondSharedMember = second;
    }

    static SagaflowSystem start(int orderReplicas, Duration sagaTimeout, Duration compensationTimeout)
            throws Exception {
        return new SagaflowSystem(orderReplicas, sagaTimeout, compensationTimeout, 0, Map.of());
    }

    /**
     * The system with {@code gatewayCount} API gateways in front of it. Each gateway knows every replica of every
     * service started here (not ones added later) and embeds a member of one gateway cluster (its own name and
     * ports), which holds the shared rate-limit buckets when {@code sagaflow.gateway.rate-limit.enabled}.
     *
     * @param gatewaySettings further gateway properties: rate limits, security, breakers and time limits
     */
    static SagaflowSystem startWithGateways(
            int orderReplicas,
            Duration sagaTimeout,
            Duration compensationTimeout,
            int gatewayCount,
            Map<String, String> gatewaySettings)
            throws Exception {
        return new SagaflowSystem(orderReplicas, sagaTimeout, compensationTimeout, gatewayCount, gatewaySettings);
    }

    /** Starts one more order-service replica, joining the others' cluster. */
    ServiceProcess addOrderReplica() throws Exception {
        ServiceProcess replica = process("order", orderReplicas++).start();
        orders.add(replica);
        replica.awaitReady(Duration.ofMinutes(3));
        return replica;
    }

    /** Restarts {@code process} (same ports, same database), e.g. after {@link ServiceProcess#kill()}. */
    ServiceProcess restart(ServiceProcess process) throws Exception {
        process.start();
        process.awaitReady(Duration.ofMinutes(3));
        return process;
    }

    ServiceProcess order() {
        return orders.stream().filter(ServiceProcess::isAlive).findFirst().orElseThrow();
    }

    List<ServiceProcess> all() {
        List<ServiceProcess> all = new ArrayList<>(List.of(account, inventory, payment));
        all.addAll(orders);
        return all;
    }

    private List<ServiceProcess> allWithGateways() {
        List<ServiceProcess> all = all();
        all.addAll(gateways);
        return all;
    }

    private ServiceProcess gateway(int index, Map<String, String> settings) {
        Map<String, String> args = new LinkedHashMap<>();
        String instances = "spring.cloud.discovery.client.simple.instances.";
        args.put(instances + "account[0].uri", account.url());
        args.put(instances + "inventory[0].uri", inventory.url());
        args.put(instances + "payment[0].uri", payment.url());
        for (int i = 0; i < orders.size(); i++) {
            args.put(instances + "order[" + i + "].uri", orders.get(i).url());
        }
        args.put("sagaflow.gateway.hazelcast.cluster-name", "gateway-" + run);
        args.put("sagaflow.gateway.hazelcast.port", Integer.toString(gatewayClusterPort));
        args.put("sagaflow.gateway.hazelcast.port-count", "10");
        args.put("sagaflow.gateway.hazelcast.members", "127.0.0.1");
        args.put("sagaflow.gateway.hazelcast.bind-interface", "127.0.0.1");
        args.put("sagaflow.gateway.hazelcast.partition-count", "23");
        HazelcastTestClusters.FAST_JOIN.forEach(
                (key, value) -> args.put("sagaflow.gateway.hazelcast.properties[" + key + "]", value));
        args.putAll(settings);
        return new ServiceProcess("gateway-" + index, jarOf("api-gateway"), args, logs);
    }

    /** The directory the processes log to; tests may keep files of their own there. */
    Path logs() {
        return logs;
    }

    private ServiceProcess process(String service, int replica) {
        TestDatabase db = databases.get(service);
        Map<String, String> args = new LinkedHashMap<>();
        args.put("spring.datasource.url", db.jdbcUrl());
        args.put("spring.datasource.username", db.username());
        args.put("spring.datasource.password", db.password());
        args.put("spring.datasource.hikari.maximum-pool-size", "8");
        int clusterPort = clusterPorts.get(service);
        args.put("sagaflow.hazelcast.service.cluster-name", service + "-" + run);
        args.put("sagaflow.hazelcast.service.port", Integer.toString(clusterPort));
        args.put("sagaflow.hazelcast.service.port-count", "10");
        args.put("sagaflow.hazelcast.service.bind-interface", "127.0.0.1");
        args.put("sagaflow.hazelcast.service.members", "127.0.0.1");
        args.put("sagaflow.hazelcast.service.partition-count", "23");
        args.put("sagaflow.hazelcast.service.jet-cooperative-threads", "1");
        // Clients of this JVM's shared member, as the services are of the shared cluster's StatefulSet in Kubernetes
        // and of the shared-cluster process of `bin/sagaflow start --shared-cluster process` (ADR 0039).
        args.put("sagaflow.hazelcast.shared.mode", "client");
        args.put("sagaflow.hazelcast.shared.cluster-name", shared.getClusterName());
        args.put(
                "sagaflow.hazelcast.shared.addresses",
                "127.0.0.1:" + shared.getPort() + ",127.0.0.1:" + (shared.getPort() + 1));
        args.put("sagaflow.hazelcast.shared.topic.listener-threads", "4");
        // What the shared members keep a message for: a client's listeners look for what they fell behind on by it.
        args.put("sagaflow.hazelcast.shared.topic.ttl", TOPIC_TTL.toMillis() + "ms");
        HazelcastTestClusters.FAST_JOIN.forEach(
                (key, value) -> args.put("sagaflow.hazelcast.service.properties[" + key + "]", value));
        args.put("sagaflow.outbox.poll-interval", "50ms");
        args.put("sagaflow.outbox.lease-ttl", "4s");
        if (service.equals("order")) {
            args.put("sagaflow.order.saga.timeout", sagaTimeout.toMillis() + "ms");
            args.put("sagaflow.order.saga.compensation-timeout", compensationTimeout.toMillis() + "ms");
            args.put("sagaflow.order.audit.inventory-url", "http://127.0.0.1:" + inventoryPort());
            args.put("sagaflow.order.audit.payment-url", "http://127.0.0.1:" + paymentPort());
            // Small pages, so every audit after a scenario merges many pages of each of the three streams.
            args.put("sagaflow.order.audit.page-size", Integer.toString(AUDIT_PAGE_SIZE));
        }
        Path jar = jarOf(service + "-service");
        return new ServiceProcess(service + "-" + replica, jar, args, logs);
    }

    private int inventoryPort() {
        return inventory == null ? 0 : inventory.port;
    }

    private int paymentPort() {
        return payment == null ? 0 : payment.port;
    }

    private static Path jarOf(String module) {
        Path dir = Path.of(System.getProperty("sagaflow.services.dir", ".."), module, "target");
        String version = System.getProperty("sagaflow.project.version", "0.1.0-SNAPSHOT");
        Path jar = dir.resolve(module + "-" + version + "-exec.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(
                    jar + " is missing: build the services and the gateway first (./mvnw verify builds all)");
        }
        return jar;
    }

    private static int randomPortBase() {
        return HazelcastTestClusters.randomPortBase();
    }

    @Override
    public void close() throws Exception {
        for (ServiceProcess gateway : gateways) {
            gateway.stop();
        }
        for (ServiceProcess process : all()) {
            process.stop();
        }
        for (HazelcastInstance member : new HazelcastInstance[] {sharedMember, secondSharedMember}) {
            if (member != null && member.getLifecycleService().isRunning()) {
                member.getLifecycleService().terminate();
            }
        }
    }
}
