package org.snowkey.examples.springboot;

import org.apache.curator.test.TestingServer;
import org.springframework.beans.factory.DisposableBean;

/** A real ZooKeeper server in this process, so that the example leases its worker id without any installation. */
public class EmbeddedZooKeeper implements DisposableBean {

    private final TestingServer server;

    public EmbeddedZooKeeper(final int port) throws Exception {
        server = new TestingServer(port, true);
    }

    public String connectString() {
        return server.getConnectString();
    }

    @Override
    public void destroy() throws Exception {
        server.close();
    }
}
