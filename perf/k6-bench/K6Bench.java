import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the load generator itself costs: k6 running {@code perf/k6/mix.js} at a fixed arrival rate against a stub of
 * the three services that answers at once (the long polls after {@code --saga-ms}), so that k6's own CPU per iteration
 * and its memory can be read without a stack competing for the cores. Each variant sets k6's settings (script
 * variables {@code NAME=VALUE}, or k6's own environment for names starting with {@code K6_} and the Go runtime's
 * {@code GOGC}, {@code GOMEMLIMIT}, {@code GOMAXPROCS} and {@code GODEBUG}); the variants run in
 * turn, {@code --rounds} times ({@code script=path} runs another copy of the mix), and the report gives k6's CPU over each measured phase from {@code /proc}.
 *
 * <p>Run from the repository root (a single-file Java program; JDK 21+, k6 from {@code perf/sweep}'s install):
 * {@code java perf/k6-bench/K6Bench.java [--rate 500] [--seconds 60] [--warmup 20] [--rounds 2] [--saga-ms 300]
 * [--k6 perf/.tools/k6] [--out perf/results/k6-bench] [--label name] [--variant 'name;NAME=VALUE;K6_NAME=VALUE;script=path' ...]}.
 */
public class K6Bench {

    private static final Pattern MARK = Pattern.compile("SAGAFLOW_MARK measure-(start|end)");
    private static final Pattern ORDER = Pattern.compile("^/api/orders/([0-9a-f-]{36})$");

    /** A set of k6 settings to measure. */
    record Variant(String name, String script, Map<String, String> scriptVars, Map<String, String> k6Env) {

        static final String MIX = "perf/k6/mix.js";

        static Variant parse(String spec) {
            String[] parts = spec.split(";");
            String script = MIX;
            Map<String, String> vars = new LinkedHashMap<>();
            Map<String, String> env = new LinkedHashMap<>();
            for (int i = 1; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq < 1) {
                    throw new IllegalArgumentException("not NAME=VALUE in variant '" + spec + "': " + parts[i]);
                }
                String name = parts[i].substring(0, eq);
                String value = parts[i].substring(eq + 1);
                if (name.equals("script")) {
                    script = value;
                } else {
                    (isK6Environment(name) ? env : vars).put(name, value);
                }
            }
            return new Variant(parts[0], script, vars, env);
        }

        /**
         * k6's own settings ({@code K6_…}) and the Go runtime's ({@code GOGC}, {@code GOMEMLIMIT}, {@code GOMAXPROCS},
         * {@code GODEBUG}).
         */
        static boolean isK6Environment(String name) {
            return name.startsWith("K6_") || GO_RUNTIME.contains(name);
        }

        static final List<String> GO_RUNTIME = List.of("GOGC", "GOMEMLIMIT", "GOMAXPROCS", "GODEBUG");

        String settings() {
            List<String> all = new ArrayList<>();
            if (!script.equals(MIX)) {
                all.add("`" + script + "`");
            }
            scriptVars.forEach((k, v) -> all.add("-e " + k + "=" + v));
            k6Env.forEach((k, v) -> all.add(k + "=" + v));
            return all.isEmpty() ? "the defaults" : String.join(" ", all);
        }
    }

    /** One measured phase of one variant. */
    record Result(Variant variant, int round, double seconds, long iterations, long dropped, double cpuSeconds,
            long peakRssKb) {

        double iterationsPerSecond() {
            return iterations / seconds;
        }

        double cpuPercent() {
            return 100 * cpuSeconds / seconds;
        }

        double cpuMsPerIteration() {
            return 1000 * cpuSeconds / iterations;
        }
    }

    public static void main(String[] args) throws Exception {
        int rate = 500;
        int seconds = 60;
        int warmup = 20;
        int rounds = 2;
        int sagaMs = 300;
        String k6 = "perf/.tools/k6";
        Path out = Path.of("perf/results/k6-bench");
        String label = null;
        List<Variant> variants = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--rate" -> rate = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--saga-ms" -> sagaMs = Integer.parseInt(args[++i]);
                case "--k6" -> k6 = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                case "--label" -> label = args[++i];
                case "--variant" -> variants.add(Variant.parse(args[++i]));
                default -> throw new IllegalArgumentException("unknown argument: " + args[i] + " (see the class comment)");
            }
        }
        if (variants.isEmpty()) {
            variants.add(Variant.parse("defaults"));
        }
        HttpServer stub = stub(sagaMs);
        String url = "http://127.0.0.1:" + stub.getAddress().getPort();
        List<Result> results = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                // ABBA: the order of the variants turns round every second round, so a drift of the host is shared.
                List<Variant> order = new ArrayList<>(variants);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Variant variant : order) {
                    Result result = run(k6, variant, round, url, rate, seconds, warmup);
                    System.out.printf(Locale.ROOT, "%s round %d: %.1f iter/s, k6 %.1f %% of a core, %.3f ms an"
                                    + " iteration, peak RSS %d MB, %d dropped%n",
                            variant.name(), round, result.iterationsPerSecond(), result.cpuPercent(),
                            result.cpuMsPerIteration(), result.peakRssKb() / 1024, result.dropped());
                    results.add(result);
                }
            }
        } finally {
            stub.stop(0);
        }
        String report = report(results, variants, rate, seconds, warmup, sagaMs, k6);
        System.out.println();
        System.out.print(report);
        Files.createDirectories(out);
        Path file = out.resolve(LocalDate.now() + (label == null ? "" : "-" + label) + ".md");
        Files.writeString(file, report);
        System.out.println("written to " + file);
    }

    /** The three services as far as the mix needs them, answering at once; a long poll answers after sagaMs. */
    static HttpServer stub(int sagaMs) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                String path = exchange.getRequestURI().getPath();
                String method = exchange.getRequestMethod();
                Matcher order = ORDER.matcher(path);
                if (method.equals("POST") && path.equals("/api/products")) {
                    answer(exchange, 201, "{\"productId\":\"" + UUID.randomUUID() + "\"}");
                } else if (method.equals("POST") && path.equals("/api/customers")) {
                    answer(exchange, 201, "{\"customerId\":\"" + UUID.randomUUID() + "\"}");
                } else if (method.equals("POST") && path.equals("/api/orders")) {
                    exchange.getResponseHeaders().set("ETag", "\"1\"");
                    answer(exchange, 201, "{\"orderId\":\"" + UUID.randomUUID() + "\",\"status\":\"PENDING\"}");
                } else if (method.equals("POST") && path.endsWith("/stock/reserve")) {
                    answer(exchange, 200, "{\"quantityReserved\":1}");
                } else if (method.equals("GET") && order.matches()) {
                    if (exchange.getRequestHeaders().containsKey("If-None-Match")) {
                        Thread.sleep(sagaMs);
                    }
                    exchange.getResponseHeaders().set("ETag", "\"2\"");
                    answer(exchange, 200, "{\"orderId\":\"" + order.group(1) + "\",\"status\":\"CONFIRMED\"}");
                } else {
                    answer(exchange, 404, "{}");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        return server;
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    static Result run(String k6, Variant variant, int round, String url, int rate, int seconds, int warmup)
            throws Exception {
        Path summary = Files.createTempFile("k6-bench", ".json");
        List<String> command = new ArrayList<>(List.of(k6, "run", "--quiet", "--no-usage-report",
                "--summary-export", summary.toString()));
        Map<String, String> vars = new LinkedHashMap<>(Map.of(
                "RATE", String.valueOf(rate), "DURATION", seconds + "s", "WARMUP", warmup + "s",
                "ACCOUNT_URLS", url, "INVENTORY_URLS", url, "ORDER_URLS", url));
        vars.putAll(variant.scriptVars());
        vars.forEach((k, v) -> command.addAll(List.of("-e", k + "=" + v)));
        command.add(variant.script());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(variant.k6Env());
        Process process = builder.start();
        long pid = process.pid();
        double ticks = clockTicks();
        double[] cpuAt = new double[2];
        long[] timeAt = new long[2];
        long peakRss = 0;
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                Matcher mark = MARK.matcher(line);
                if (mark.find()) {
                    int i = mark.group(1).equals("start") ? 0 : 1;
                    cpuAt[i] = cpuSeconds(pid, ticks);
                    timeAt[i] = System.nanoTime();
                    if (i == 1) {
                        peakRss = peakRssKb(pid);
                    }
                } else if (line.contains("level=error")) {
                    System.err.println(line);
                }
            }
        }
        int exit = process.waitFor();
        if (timeAt[0] == 0 || timeAt[1] == 0) {
            throw new IllegalStateException("k6 (" + variant.name() + ") ended with " + exit
                    + " before marking its measured phase");
        }
        String json = Files.readString(summary);
        Files.delete(summary);
        return new Result(variant, round, (timeAt[1] - timeAt[0]) / 1e9,
                count(json, "iterations{phase:measure}"), count(json, "dropped_iterations{scenario:measure}"),
                cpuAt[1] - cpuAt[0], peakRss);
    }

    /**
     * The {@code count} of a metric in k6's summary export, 0 when it has none. k6 writes a metric's fields in the
     * order of their names (Go's JSON encoding of a map), so {@code count} comes before the nested {@code thresholds}.
     */
    static long count(String json, String metric) {
        Matcher m = Pattern.compile(Pattern.quote("\"" + metric + "\"") + ":\\s*\\{[^}]*?\"count\":\\s*(\\d+)")
                .matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** User and system CPU of a process so far, from /proc (its fields after the command's closing parenthesis). */
    static double cpuSeconds(long pid, double ticks) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / ticks;
    }

    static long peakRssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return 0;
    }

    static double clockTicks() throws Exception {
        Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
        String ticks = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        getconf.waitFor();
        return Double.parseDouble(ticks);
    }

    static String report(List<Result> results, List<Variant> variants, int rate, int seconds, int warmup, int sagaMs,
            String k6) throws Exception {
        StringBuilder r = new StringBuilder();
        Process version = new ProcessBuilder(k6, "version").redirectErrorStream(true).start();
        String k6Version = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        version.waitFor();
        r.append(String.format(Locale.ROOT, "# What k6 costs running the mix at %d iter/s%n%n", rate));
        r.append(String.format(Locale.ROOT, "`java perf/k6-bench/K6Bench.java --rate %d --seconds %d --warmup %d"
                + " --saga-ms %d`, %s, against a stub answering at once (long polls after %d ms). k6's CPU (user and"
                + " system, `/proc`) over each measured phase of %d s.%n%n", rate, seconds, warmup, sagaMs, k6Version,
                sagaMs, seconds));
        r.append("| variant | k6 settings | round | iter/s | dropped | k6 CPU % of a core | ms an iteration | peak RSS MB |\n");
        r.append("|---|---|---|---|---|---|---|---|\n");
        for (Result result : results) {
            r.append(String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %d | %.1f | %.3f | %d |%n",
                    result.variant().name(), result.variant().settings(), result.round(),
                    result.iterationsPerSecond(), result.dropped(), result.cpuPercent(), result.cpuMsPerIteration(),
                    result.peakRssKb() / 1024));
        }
        r.append("\n| variant | mean ms an iteration | mean k6 CPU % of a core |\n|---|---|---|\n");
        for (Variant variant : variants) {
            List<Result> own = results.stream().filter(x -> x.variant() == variant).toList();
            r.append(String.format(Locale.ROOT, "| %s | %.3f | %.1f |%n", variant.name(),
                    own.stream().mapToDouble(Result::cpuMsPerIteration).average().orElse(0),
                    own.stream().mapToDouble(Result::cpuPercent).average().orElse(0)));
        }
        return r.toString();
    }
}
