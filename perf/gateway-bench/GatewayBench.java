import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What the API gateway adds to a request (ADR 0012): the same GET sent at a fixed rate straight to a trivial backend
 * and through the gateway, in alternating phases of one run. It starts the backend and the gateway as their own JVMs,
 * so their CPU time can be read separately, and reports latency percentiles (measured from each request's scheduled
 * send time, so a stalled client cannot hide latency) and CPU per 1 000 requests.
 *
 * <p>Run from the repository root after {@code ./mvnw -q package -DskipTests -pl api-gateway}:
 * {@code java perf/gateway-bench/GatewayBench.java [--rate 500] [--seconds 30] [--rounds 3] [--warmup 120]
 * [--out perf/results/gateway] [--label name] [--gateway-arg --some.property=value ...]
 * [--gateway-jvm-arg -XX:... ...]}.
 */
public class GatewayBench {

    /** Where a phase sends its requests. */
    enum Target {
        DIRECT,
        GATEWAY
    }

    private static final String SOURCE = "perf/gateway-bench/GatewayBench.java";
    private static final int MAX_IN_FLIGHT = 128;

    private static final String GATEWAY_JVM = "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:MaxMetaspaceSize=192m -Xss512k";
    private static final String BACKEND_JVM = "-Xms32m -Xmx128m -XX:+UseSerialGC";

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("backend")) {
            serveTrivialBackend(Integer.parseInt(args[1]));
            return;
        }
        int rate = 500;
        int seconds = 30;
        int rounds = 3;
        int warmup = 120;
        String out = "perf/results/gateway";
        String label = "";
        String jar = null;
        List<String> gatewayArgs = new ArrayList<>();
        List<String> gatewayJvmArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rate" -> rate = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--out" -> out = args[++i];
                case "--label" -> label = "-" + args[++i];
                case "--gateway-jar" -> jar = args[++i];
                case "--gateway-arg" -> gatewayArgs.add(args[++i]);
                case "--gateway-jvm-arg" -> gatewayJvmArgs.add(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path gatewayJar = jar != null ? Path.of(jar) : findGatewayJar();
        String java = ProcessHandle.current().info().command().orElse("java");
        if (!Files.exists(Path.of(SOURCE))) {
            throw new IllegalStateException("run from the repository root: java " + SOURCE);
        }
        String load0 = loadAverage();

        int backendPort = freePort();
        int gatewayPort = freePort();
        List<String> backendCommand = new ArrayList<>(List.of(java));
        backendCommand.addAll(List.of(BACKEND_JVM.split(" ")));
        backendCommand.addAll(List.of(SOURCE, "backend", Integer.toString(backendPort)));
        Process backend = start(backendCommand, "backend");

        List<String> gatewayCommand = new ArrayList<>(List.of(java));
        gatewayCommand.addAll(List.of(GATEWAY_JVM.split(" ")));
        gatewayCommand.addAll(gatewayJvmArgs);
        gatewayCommand.addAll(List.of("-jar", gatewayJar.toString(), "--server.port=" + gatewayPort));
        for (String service : List.of("account", "inventory", "order", "payment")) {
            gatewayCommand.add("--spring.cloud.discovery.client.simple.instances." + service + "[0].uri=http://127.0.0.1:"
                    + backendPort);
        }
        gatewayCommand.addAll(gatewayArgs);
        Process gateway = start(gatewayCommand, "gateway");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gateway.destroy();
            backend.destroy();
        }));

        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        Map<Target, URI> targets = new EnumMap<>(Target.class);
        targets.put(Target.DIRECT, URI.create("http://127.0.0.1:" + backendPort + "/api/orders/bench"));
        targets.put(Target.GATEWAY, URI.create("http://127.0.0.1:" + gatewayPort + "/api/orders/bench"));
        try {
            awaitUp(client, URI.create("http://127.0.0.1:" + backendPort + "/actuator/health"), backend);
            awaitUp(client, URI.create("http://127.0.0.1:" + gatewayPort + "/actuator/health"), gateway);
            System.out.printf("backend :%d, gateway :%d; warming up %d s%n", backendPort, gatewayPort, warmup);
            // A cold JVM cannot take the full rate at once: ramp up in fifths while the JIT compiles.
            for (int step = 1; step <= 5; step++) {
                run(client, targets.get(Target.GATEWAY), rate * step / 5, Math.max(1, warmup / 5), backend, gateway);
            }
            run(client, targets.get(Target.DIRECT), rate, Math.max(1, warmup / 4), backend, gateway);

            Map<Target, List<Phase>> phases = new EnumMap<>(Target.class);
            for (int round = 1; round <= rounds; round++) {
                for (Target path : Target.values()) {
                    Phase phase = run(client, targets.get(path), rate, seconds, backend, gateway);
                    phases.computeIfAbsent(path, p -> new ArrayList<>()).add(phase);
                    System.out.printf(
                            Locale.ROOT,
                            "round %d %-7s p50 %.3f ms  p99 %.3f ms  errors %d  gateway cpu %.1f ms/1k%n",
                            round,
                            path,
                            phase.percentile(50),
                            phase.percentile(99),
                            phase.errors,
                            phase.perThousand(phase.gatewayCpuNanos));
                }
            }
            String report = report(phases, rate, seconds, rounds, warmup, gatewayArgs, load0, loadAverage());
            System.out.println(report);
            Path outDir = Path.of(out);
            Files.createDirectories(outDir);
            Path file = outDir.resolve(LocalDate.now() + "-gateway-bench" + label + ".md");
            Files.writeString(file, report);
            System.out.println("written to " + file);
        } finally {
            gateway.destroy();
            backend.destroy();
            gateway.waitFor(20, TimeUnit.SECONDS);
            backend.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** One phase: every request's latency in nanoseconds, errors, and CPU each process spent meanwhile. */
    record Phase(long[] latencies, int errors, long gatewayCpuNanos, long backendCpuNanos, long clientCpuNanos) {

        double percentile(double p) {
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
            return sorted[Math.max(0, index)] / 1e6;
        }

        double perThousand(long cpuNanos) {
            return cpuNanos / 1e6 / (latencies.length / 1000.0);
        }

        static Phase merge(List<Phase> phases) {
            long[] all = phases.stream().flatMapToLong(p -> Arrays.stream(p.latencies)).toArray();
            return new Phase(
                    all,
                    phases.stream().mapToInt(Phase::errors).sum(),
                    phases.stream().mapToLong(Phase::gatewayCpuNanos).sum(),
                    phases.stream().mapToLong(Phase::backendCpuNanos).sum(),
                    phases.stream().mapToLong(Phase::clientCpuNanos).sum());
        }
    }

    /**
     * Sends GETs to {@code target} at {@code rate} per second for {@code seconds}, open loop. At most
     * {@link #MAX_IN_FLIGHT} requests are outstanding: a request due while that many wait is not sent and counts as
     * an error (as k6's arrival-rate executors drop iterations beyond their VUs), so an overloaded target cannot make
     * the client pile up requests without bound.
     */
    static Phase run(HttpClient client, URI target, int rate, int seconds, Process backend, Process gateway)
            throws InterruptedException {
        int total = rate * seconds;
        long[] latencies = new long[total];
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger dropped = new AtomicInteger();
        Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        HttpRequest request =
                HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(5)).GET().build();
        long interval = 1_000_000_000L / rate;
        long gatewayCpu0 = cpuNanos(gateway.toHandle());
        long backendCpu0 = cpuNanos(backend.toHandle());
        long clientCpu0 = cpuNanos(ProcessHandle.current());
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            long start = System.nanoTime() + 20_000_000L;
            for (int i = 0; i < total; i++) {
                long scheduled = start + i * interval;
                for (long wait = scheduled - System.nanoTime(); wait > 0; wait = scheduled - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                if (!inFlight.tryAcquire()) {
                    dropped.incrementAndGet();
                    latencies[i] = -1;
                    continue;
                }
                int index = i;
                senders.execute(() -> {
                    try {
                        HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
                        if (response.statusCode() != 200) {
                            errors.incrementAndGet();
                        }
                    } catch (IOException | InterruptedException e) {
                        errors.incrementAndGet();
                    } finally {
                        inFlight.release();
                    }
                    latencies[index] = System.nanoTime() - scheduled;
                });
            }
        }
        long[] sent = Arrays.stream(latencies).filter(latency -> latency >= 0).toArray();
        return new Phase(
                sent,
                errors.get() + dropped.get(),
                cpuNanos(gateway.toHandle()) - gatewayCpu0,
                cpuNanos(backend.toHandle()) - backendCpu0,
                cpuNanos(ProcessHandle.current()) - clientCpu0);
    }

    static String report(
            Map<Target, List<Phase>> phases,
            int rate,
            int seconds,
            int rounds,
            int warmup,
            List<String> gatewayArgs,
            String load0,
            String load1) {
        Phase direct = Phase.merge(phases.get(Target.DIRECT));
        Phase viaGateway = Phase.merge(phases.get(Target.GATEWAY));
        StringBuilder md = new StringBuilder();
        md.append("# API gateway benchmark\n\n");
        md.append(String.format(
                Locale.ROOT,
                "`GET /api/orders/bench` at %d req/s (open loop, JDK HttpClient, HTTP/1.1 keep-alive) against a trivial"
                        + " backend (JDK HttpServer, `%s`), straight and through the gateway (`%s`; breaker, time"
                        + " limiter, RetryReads, load balancer, correlation filter; %s),"
                        + " %d rounds of %d s per path, alternating, after %d s of warm-up. Each in its own JVM on"
                        + " 127.0.0.1; %d cores, Java %s. Load average (1/5/15 min) before: %s, after: %s (the box is"
                        + " shared). Latency from each request's scheduled send time to its complete response.%n%n",
                rate,
                BACKEND_JVM,
                GATEWAY_JVM,
                gatewayArgs.isEmpty()
                        ? "defaults: rate limit and JWT off"
                        : "defaults except `" + String.join(" ", gatewayArgs) + "`",
                rounds,
                seconds,
                warmup,
                Runtime.getRuntime().availableProcessors(),
                Runtime.version(),
                load0,
                load1));
        md.append("| path | sent | errors or not sent | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms |"
                + " gateway CPU ms / 1 000 req | backend CPU ms / 1 000 req | client CPU ms / 1 000 req |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Target path : Target.values()) {
            Phase all = path == Target.DIRECT ? direct : viaGateway;
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f | %.1f |%n",
                    path == Target.DIRECT ? "direct" : "via gateway",
                    all.latencies.length,
                    all.errors,
                    all.percentile(50),
                    all.percentile(90),
                    all.percentile(99),
                    all.percentile(99.9),
                    all.percentile(100),
                    all.perThousand(all.gatewayCpuNanos),
                    all.perThousand(all.backendCpuNanos),
                    all.perThousand(all.clientCpuNanos)));
        }
        md.append(String.format(
                Locale.ROOT,
                "%n**Added by the gateway: p50 %+.3f ms, p99 %+.3f ms; %.1f ms of gateway CPU per 1 000 requests.**%n%n",
                viaGateway.percentile(50) - direct.percentile(50),
                viaGateway.percentile(99) - direct.percentile(99),
                viaGateway.perThousand(viaGateway.gatewayCpuNanos)));
        for (Phase all : List.of(direct, viaGateway)) {
            if (all.errors > all.latencies.length / 100) {
                md.append(String.format(
                        Locale.ROOT,
                        "**Not a valid measurement:** %d of %d requests %s were errors or not sent (a rate limit that"
                                + " rejects, a failing backend or a saturated client), so the figures above time"
                                + " mostly those, not proxied requests.%n%n",
                        all.errors,
                        all.latencies.length,
                        all == direct ? "sent directly" : "through the gateway"));
            }
        }
        md.append("Per round (p50 / p99 ms):\n\n| round | direct | via gateway | added p50 |\n|---|---|---|---|\n");
        for (int round = 0; round < phases.get(Target.DIRECT).size(); round++) {
            Phase d = phases.get(Target.DIRECT).get(round);
            Phase g = phases.get(Target.GATEWAY).get(round);
            md.append(String.format(
                    Locale.ROOT,
                    "| %d | %.3f / %.3f | %.3f / %.3f | %+.3f |%n",
                    round + 1,
                    d.percentile(50),
                    d.percentile(99),
                    g.percentile(50),
                    g.percentile(99),
                    g.percentile(50) - d.percentile(50)));
        }
        return md.toString();
    }

    static void serveTrivialBackend(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        byte[] ok = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, ok.length);
                exchange.getResponseBody().write(ok);
            }
        });
        server.start();
    }

    private static Process start(List<String> command, String name) throws IOException {
        Path log = Files.createTempFile("gateway-bench-" + name, ".log");
        System.out.println(name + " log: " + log);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static void awaitUp(HttpClient client, URI health, Process process) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(health + ": process exited with " + process.exitValue());
            }
            try {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(health + " not up after 120 s");
    }

    private static long cpuNanos(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static Path findGatewayJar() throws IOException {
        try (var jars = Files.list(Path.of("api-gateway/target"))) {
            return jars.filter(p -> p.getFileName().toString().endsWith("-exec.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "no api-gateway/target/*-exec.jar: run ./mvnw -q package -DskipTests -pl api-gateway"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " / " + fields[1] + " / " + fields[2];
        } catch (IOException e) {
            return "n/a";
        }
    }
}
