package org.agentmemory.platform.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.UUID;

/**
 * This server's identity in leases and reports (the dream cycle's lease, {@code cluster_lease}, dream reports): the
 * node name ({@code jboss.node.name}, else the host name, else {@code server}; at most 160 characters), a slash and 8
 * random hexadecimal digits chosen once per start, so a restarted server never mistakes its predecessor's lease for
 * its own. One per deployment.
 */
@ApplicationScoped
public class ServerIdentity {

    private final String id = create(System.getProperty("jboss.node.name"));
    private final Instant startedAt = Instant.now();

    /**
     * @param node the node name, or {@code null} or blank to use the host name
     * @return a new server id for it: {@code node/xxxxxxxx}, at most 169 characters
     */
    static String create(String node) {
        String name = node;
        if (name == null || name.isBlank()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                name = "server";
            }
        }
        return (name.length() > 160 ? name.substring(0, 160) : name) + "/"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    /** @return this server's id, the same for the deployment's life */
    public String id() {
        return id;
    }

    /** @return when this deployment's identity was made (its start) */
    public Instant startedAt() {
        return startedAt;
    }
}
