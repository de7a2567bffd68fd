package io.sagaflow.framework.postgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import javax.net.SocketFactory;

/**
 * Connects pgjdbc to a PostgreSQL on the same machine through its Unix-domain socket, with the JDK's own support for
 * such sockets (JEP 380) and no native library (ADR 0067). A statement's round trip then skips the TCP stack of the
 * loopback interface on both sides. pgjdbc takes it as
 *
 * <pre>
 * jdbc:postgresql://localhost:5432/db?socketFactory=io.sagaflow.framework.postgres.UnixDomainSocketFactory
 *     &amp;socketFactoryArg=/run/postgresql/.s.PGSQL.5432
 * </pre>
 *
 * <p>The argument is the socket file, which PostgreSQL names {@code .s.PGSQL.<port>} in each of its
 * {@code unix_socket_directories}; the URL's host and port are then only names. Such a socket carries no TLS:
 * PostgreSQL answers pgjdbc's TLS request with a refusal and the connection goes on in the clear, as on its own host
 * it may.
 */
public final class UnixDomainSocketFactory extends SocketFactory {

    private final Path socketFile;

    /** @param socketFile PostgreSQL's socket file, {@code <directory>/.s.PGSQL.<port>} */
    public UnixDomainSocketFactory(String socketFile) {
        if (socketFile == null || socketFile.isBlank()) {
            throw new IllegalArgumentException(
                    "socketFactoryArg must name PostgreSQL's socket file, <directory>/.s.PGSQL.<port>");
        }
        this.socketFile = Path.of(socketFile);
    }

    /** An unconnected socket: {@link Socket#connect} connects it to the socket file, whatever address it is given. */
    @Override
    public Socket createSocket() throws IOException {
        return new UnixDomainSocket(socketFile);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected();
    }

    private Socket connected() throws IOException {
        Socket socket = createSocket();
        socket.connect(null);
        return socket;
    }
}
