package io.sagaflow.system;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** One service replica (or gateway) as its own JVM, started from its runnable jar, logging to a file. */
final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final String name;
    final int port;
    private final List<String> command;
    private final Path log;
    private Process process;

    ServiceProcess(String name, Path jar, Map<String, String> arguments, Path logDir) {
        this.name = name;
        this.port = freePort();
        this.log = logDir.resolve(name + ".log");
        this.command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xms64m",
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xss512k",
                "-jar",
                jar.toString(),
                "--server.port=" + port));
        arguments.forEach((key, value) -> command.add("--" + key + "=" + value));
    }

    ServiceProcess start() throws IOException {
        Files.createDirectories(log.getParent());
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        // Whatever happens to the test JVM, its service processes do not outlive it.
        Process started = process;
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
        return this;
    }

    /** Waits until the replica reports ready (PostgreSQL and Hazelcast up). */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited; see " + log);
            }
            try {
                HttpResponse<String> ready = HTTP.send(
                        HttpRequest.newBuilder(URI.create(url() + "/actuator/health/readiness"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(name + " not ready after " + timeout + "; see " + log);
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Kills the replica at once, as a crash would: no graceful leave, no lease hand-back. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Stops the replica the way Kubernetes would (SIGTERM, graceful shutdown). */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** Freezes the replica (SIGSTOP): it keeps its sockets open and answers nothing, like a stalled JVM. */
    void freeze() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** Lets a {@link #freeze() frozen} replica run again (SIGCONT). */
    void thaw() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill " + signal + " " + name + " failed: "
                    + new String(kill.getInputStream().readAllBytes()));
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private static final Set<Integer> GIVEN_PORTS = ConcurrentHashMap.newKeySet();

    /**
     * A free port below the test clusters' ports (10 000 and up) and the kernel's ephemeral range (32 768 and up). A
     * port the kernel hands out for {@code new ServerSocket(0)} is an ephemeral one, which an outgoing connection (a
     * Hazelcast join, a database connection) may take in the seconds before the service binds it. A port is given
     * out once per test JVM, since the processes bind theirs only when they start.
     */
    static int freePort() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 5_000 + ThreadLocalRandom.current().nextInt(5_000);
            if (!GIVEN_PORTS.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port)) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free port between 5000 and 9999");
    }
}
