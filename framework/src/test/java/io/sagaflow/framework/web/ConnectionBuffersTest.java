package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

class ConnectionBuffersTest {

    @Test
    void setsTheReadAndWriteBufferOfEveryConnection() {
        Connector connector = new Connector("HTTP/1.1");

        new ConnectionBuffers(DataSize.ofKilobytes(2)).customize(connector);

        assertThat(connector.getProperty("socket.appReadBufSize")).hasToString("2048");
        assertThat(connector.getProperty("socket.appWriteBufSize")).hasToString("2048");
    }

    @Test
    void refusesABufferTooSmallForARequestLine() {
        assertThatThrownBy(() -> new ConnectionBuffers(DataSize.ofBytes(100)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sagaflow.web.connection-buffer")
                .hasMessageContaining("512");
        assertThatThrownBy(() -> new ConnectionBuffers(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
