package org.ferrite.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import java.util.List;

import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.BridgeConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

/**
 * An Apache ActiveMQ Artemis broker embedded in its own JVM, started by scripts/bench.
 *
 * <p>Usage: {@code ArtemisBroker PORT DATA_DIRECTORY [--bridge-to PORT]} (with --bridge-to, the
 * core bridge of the channel benchmark, {@link ChannelPeers}). It listens on 127.0.0.1:PORT (core
 * protocol, which the Artemis JMS client speaks), keeps its journal, bindings, paging and large
 * messages under DATA_DIRECTORY, prints {@code ARTEMIS READY <port>} once it accepts connections,
 * and runs until it gets SIGTERM (the script stops it by its pid), when it stops the broker.
 *
 * <p>Persistence is configured as Artemis's documentation recommends against message loss:
 * persistence on, journal-sync-transactional and journal-sync-non-transactional true (every
 * commit and every durable non-transacted send waits for the journal's sync), journal-datasync
 * true (fdatasync rather than relying on the page cache). The journal type is NIO, because AIO
 * needs libaio's native library, which is not on every machine; Artemis falls back to NIO in
 * that case anyway. Security is off: the broker is on the loopback address only, for the run.
 *
 * <p>journal-buffer-timeout (how long the journal gathers writes before one sync) is calibrated as
 * {@code artemis create} does for the broker instances it makes: the mean time of a 4 KiB
 * write+sync on the data directory's disk, measured at start-up ({@link #SYNC_SAMPLES} syncs), but
 * never above Artemis's own NIO default ({@link #NIO_DEFAULT_BUFFER_TIMEOUT_NS}): this machine's
 * disk is shared and drifts by several times within minutes, and one slow moment at start-up
 * would otherwise hold every commit of the run back by that much.
 */
public final class ArtemisBroker {
    private ArtemisBroker() {}

    /** Artemis's default journal-buffer-timeout for the NIO journal (300 syncs/s), in ns. */
    static final int NIO_DEFAULT_BUFFER_TIMEOUT_NS = 3_333_333;

    /** Syncs timed to calibrate journal-buffer-timeout. */
    static final int SYNC_SAMPLES = 200;

    /** Mean nanoseconds of a 4 KiB write + force(false) at consecutive offsets in {@code directory}. */
    static int calibrateBufferTimeout(Path directory) throws IOException {
        Path file = directory.resolve("sync-calibration.tmp");
        ByteBuffer block = ByteBuffer.allocateDirect(4096);
        long started;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            started = System.nanoTime();
            for (int i = 0; i < SYNC_SAMPLES; i++) {
                block.clear();
                channel.write(block, (long) i * 4096);
                channel.force(false);
            }
        }
        long mean = (System.nanoTime() - started) / SYNC_SAMPLES;
        Files.deleteIfExists(file);
        return (int) Math.max(1_000, Math.min(mean, NIO_DEFAULT_BUFFER_TIMEOUT_NS));
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 && !(args.length == 4 && "--bridge-to".equals(args[2]))) {
            System.err.println("usage: ArtemisBroker PORT DATA_DIRECTORY [--bridge-to PORT]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        Path data = Path.of(args[1]);
        Configuration config = new ConfigurationImpl();
        config.setName("ferrite-bench-artemis");
        config.setPersistenceEnabled(true);
        config.setSecurityEnabled(false);
        config.setJournalType(JournalType.NIO);
        config.setJournalSyncTransactional(true);
        config.setJournalSyncNonTransactional(true);
        config.setJournalDatasync(true);
        Files.createDirectories(data);
        int bufferTimeout = calibrateBufferTimeout(data);
        config.setJournalBufferTimeout_NIO(bufferTimeout);
        System.out.println("journal-buffer-timeout " + bufferTimeout
                + " ns (mean 4 KiB write+sync here, at most Artemis's NIO default)");
        config.setJournalDirectory(data.resolve("journal").toString());
        config.setBindingsDirectory(data.resolve("bindings").toString());
        config.setPagingDirectory(data.resolve("paging").toString());
        config.setLargeMessagesDirectory(data.resolve("large-messages").toString());
        config.addAcceptorConfiguration("core", "tcp://127.0.0.1:" + port + "?protocols=CORE");
        if (args.length == 4) {
            // The channel benchmark's forwarder (ChannelPeers): queue fwd.src bridged to address
            // fwd.dst of the broker on the other port, with duplicate detection (the bridge's
            // once-and-only-once), reconnecting for ever.
            config.addQueueConfiguration(new QueueConfiguration("fwd.src").setRoutingType(RoutingType.ANYCAST)
                    .setDurable(true));
            config.addConnectorConfiguration("peer", "tcp://127.0.0.1:" + Integer.parseInt(args[3]));
            config.getBridgeConfigurations().add(new BridgeConfiguration().setName("fwd").setQueueName("fwd.src")
                    .setForwardingAddress("fwd.dst").setStaticConnectors(List.of("peer"))
                    .setUseDuplicateDetection(true).setRetryInterval(100).setReconnectAttempts(-1));
        }
        EmbeddedActiveMQ broker = new EmbeddedActiveMQ();
        broker.setConfiguration(config);
        broker.start();
        System.out.println("ARTEMIS READY " + port);
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                broker.stop();
            } catch (Exception error) {
                System.err.println("Artemis stop: " + error);
            }
        }));
        Thread.currentThread().join();
    }
}
