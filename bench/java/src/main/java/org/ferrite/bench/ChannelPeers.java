package org.ferrite.bench;

import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientRequestor;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.api.core.management.ManagementHelper;
import org.apache.activemq.artemis.api.core.management.ResourceNames;

/**
 * The peers' equivalent of a message channel, for scripts/bench --channels: messages moved from a
 * queue on one broker to a queue on another by the broker's own forwarder, measured as
 * ferrite-bench's {@code channels} measures Ferrite's: the messages put to the source queue while
 * the forwarder is stopped, the forwarder started, and the destination's depth watched; over the
 * interval from a tenth of them arrived to nine tenths (at most 3, 10 or 30 s by mode: a slow
 * forwarder is measured over that much), messages per second and each broker process's CPU
 * (/proc/PID/stat) per message. What is left is then purged.
 *
 * <ul>
 *   <li>RabbitMQ: a dynamic shovel (rabbitmq_shovel plugin on the source node), AMQP 0-9-1 both
 *       ways, ack-mode on-confirm (a message is acknowledged at the source once the destination
 *       confirmed it: no loss, the assured mode), durable classic queues. The shovel is declared
 *       and removed with {@code rabbitmqctl set_parameter / clear_parameter} (the command given
 *       by --rabbitmqctl, run with this program's environment).
 *   <li>Artemis: a core bridge (ArtemisBroker --bridge-to) from queue fwd.src to address fwd.dst
 *       on the other broker, duplicate detection on (Artemis's once-and-only-once), stopped and
 *       started through the management address.
 * </ul>
 *
 * <p>Usage: {@code ChannelPeers --broker rabbitmq|artemis --source-port P --target-port Q
 * --source-pid A --target-pid B [--rabbitmqctl CMD --source-node N --target-node M]
 * [--mode smoke|quick|full] [--run ID] [--results FILE]}.
 */
public final class ChannelPeers {
    private static final String SOURCE = "fwd.src";
    private static final String TARGET = "fwd.dst";
    private static final int[] SIZES = {1024, 32 * 1024};

    private final String broker;
    private final int sourcePort;
    private final int targetPort;
    private final long sourcePid;
    private final long targetPid;
    private final String rabbitmqctl;
    private final String sourceNode;
    private final String mode;
    private final String run;
    private final String results;

    private ChannelPeers(String[] args) {
        String broker = null, rabbitmqctl = null, sourceNode = null, mode = "quick", run = "peers", results = "results.jsonl";
        int sourcePort = 0, targetPort = 0;
        long sourcePid = 0, targetPid = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--broker": broker = value; break;
                case "--source-port": sourcePort = Integer.parseInt(value); break;
                case "--target-port": targetPort = Integer.parseInt(value); break;
                case "--source-pid": sourcePid = Long.parseLong(value); break;
                case "--target-pid": targetPid = Long.parseLong(value); break;
                case "--rabbitmqctl": rabbitmqctl = value; break;
                case "--source-node": sourceNode = value; break;
                case "--mode": mode = value; break;
                case "--run": run = value; break;
                case "--results": results = value; break;
                default: throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (broker == null || sourcePort == 0 || targetPort == 0) {
            throw new IllegalArgumentException("--broker, --source-port and --target-port are required");
        }
        this.broker = broker;
        this.sourcePort = sourcePort;
        this.targetPort = targetPort;
        this.sourcePid = sourcePid;
        this.targetPid = targetPid;
        this.rabbitmqctl = rabbitmqctl;
        this.sourceNode = sourceNode;
        this.mode = mode;
        this.run = run;
        this.results = results;
    }

    public static void main(String[] args) throws Exception {
        ChannelPeers peers = new ChannelPeers(args);
        for (int size : SIZES) {
            for (boolean persistent : new boolean[] {false, true}) {
                try {
                    peers.cell(size, persistent);
                } catch (Exception error) {
                    System.out.println("  " + peers.broker + " " + size / 1024 + " KiB: failed: " + error);
                }
            }
        }
    }

    /** Messages of a cell: as ferrite-bench's BATCHSZ(50) cells. */
    private long messages(int size, boolean persistent) {
        long quick = size > 1024 ? (persistent ? 2_000 : 4_000) : (persistent ? 5_000 : 20_000);
        switch (mode) {
            case "smoke": return Math.max(200, quick / 10);
            case "full": return quick * 4;
            default: return quick;
        }
    }

    /** The peer's forwarder for one cell. */
    interface Forwarder extends AutoCloseable {
        void preload(long count, int size, boolean persistent) throws Exception;
        void startForwarding() throws Exception;
        long targetDepth() throws Exception;
        void stopForwarding() throws Exception;
    }

    private void cell(int size, boolean persistent) throws Exception {
        long count = messages(size, persistent);
        try (Forwarder forwarder = "rabbitmq".equals(broker) ? new Shovel() : new CoreBridge()) {
            forwarder.preload(count, size, persistent);
            forwarder.startForwarding();
            long deadline = System.nanoTime() + 600_000_000_000L;
            long low = waitFor(forwarder, count / 10, deadline, false);
            long started = System.nanoTime();
            BrokerUsage sourceStart = BrokerUsage.of(sourcePid), targetStart = BrokerUsage.of(targetPid);
            long windowEnd = started + (long) (windowSeconds() * 1e9);
            long high = waitFor(forwarder, count * 9 / 10, windowEnd, true);
            double seconds = (System.nanoTime() - started) / 1e9;
            BrokerUsage sourceEnd = BrokerUsage.of(sourcePid), targetEnd = BrokerUsage.of(targetPid);
            forwarder.stopForwarding();
            long moved = Math.max(1, high - low);
            double rate = moved / seconds;
            double sourceCpu = cpuPerMessage(sourceStart, sourceEnd, moved);
            double targetCpu = cpuPerMessage(targetStart, targetEnd, moved);
            String name = (persistent ? "p-" : "np-") + size / 1024 + "k";
            System.out.printf(Locale.ROOT, "  %s %d KiB %s: %.0f msgs/s, CPU/msg source %.1f us + target %.1f us%n",
                    system(), size / 1024, persistent ? "persistent" : "non-persistent", rate, sourceCpu, targetCpu);
            emit(name, size, persistent, "rate", "msgs/s moved", rate, "msgs/s");
            emit(name, size, persistent, "cpu_us_sender", "source broker CPU per message", sourceCpu, "us");
            emit(name, size, persistent, "cpu_us_receiver", "target broker CPU per message", targetCpu, "us");
            emit(name, size, persistent, "cpu_us_total", "CPU per message, both brokers", sourceCpu + targetCpu, "us");
        }
    }

    /** The longest measured interval (as ferrite-bench's): a slow forwarder is measured over it. */
    private double windowSeconds() {
        switch (mode) {
            case "smoke": return 3;
            case "full": return 30;
            default: return 10;
        }
    }

    /** Wait until the target holds {@code atLeast}; at {@code deadline}, fail, or ({@code soft})
     * return the depth reached. */
    private static long waitFor(Forwarder forwarder, long atLeast, long deadline, boolean soft) throws Exception {
        while (true) {
            long depth = forwarder.targetDepth();
            if (depth >= atLeast || (soft && System.nanoTime() > deadline)) {
                return depth;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(depth + " messages arrived; the forwarder stalled");
            }
            Thread.sleep(5);
        }
    }

    private static double cpuPerMessage(BrokerUsage start, BrokerUsage end, long messages) {
        if (start == null || end == null) {
            return Double.NaN;
        }
        return end.since(start).cpuSeconds() * 1e6 / messages;
    }

    private String system() {
        return "rabbitmq".equals(broker) ? "rabbitmq-shovel" : "artemis-bridge";
    }

    private void emit(String cell, int size, boolean persistent, String quantity, String what, double value, String unit)
            throws IOException {
        String line = "{\"run\":" + LoadGenerator.json(run) + ",\"mode\":" + LoadGenerator.json(mode)
                + ",\"bench\":\"channels\",\"system\":" + LoadGenerator.json(system())
                + ",\"metric\":" + LoadGenerator.json(size / 1024 + " KiB " + (persistent ? "persistent" : "non-persistent") + ": " + what)
                + ",\"value\":" + LoadGenerator.number(value) + ",\"unit\":" + LoadGenerator.json(unit)
                + ",\"cell\":" + LoadGenerator.json(cell) + ",\"quantity\":" + LoadGenerator.json(quantity)
                + ",\"size\":" + size + ",\"persistent\":" + (persistent ? 1 : 0) + "}";
        try (PrintWriter out = new PrintWriter(new FileWriter(results, true))) {
            out.println(line);
        }
    }

    /** A RabbitMQ dynamic shovel between the two nodes. */
    private final class Shovel implements Forwarder {
        private final Connection source;
        private final Connection target;
        private final Channel sourceChannel;
        private final Channel targetChannel;

        Shovel() throws Exception {
            ConnectionFactory factory = new ConnectionFactory();
            factory.setHost("127.0.0.1");
            factory.setPort(sourcePort);
            source = factory.newConnection();
            factory.setPort(targetPort);
            target = factory.newConnection();
            sourceChannel = source.createChannel();
            targetChannel = target.createChannel();
            sourceChannel.queueDeclare(SOURCE, true, false, false, null);
            targetChannel.queueDeclare(TARGET, true, false, false, null);
            sourceChannel.queuePurge(SOURCE);
            targetChannel.queuePurge(TARGET);
        }

        @Override
        public void preload(long count, int size, boolean persistent) throws Exception {
            sourceChannel.confirmSelect();
            AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().deliveryMode(persistent ? 2 : 1).build();
            byte[] body = new byte[size];
            for (long i = 1; i <= count; i++) {
                sourceChannel.basicPublish("", SOURCE, properties, body);
                if (i % 1000 == 0 || i == count) {
                    sourceChannel.waitForConfirmsOrDie(600_000);
                }
            }
        }

        @Override
        public void startForwarding() throws Exception {
            String definition = "{\"src-protocol\":\"amqp091\",\"src-uri\":\"amqp://127.0.0.1:" + sourcePort
                    + "\",\"src-queue\":\"" + SOURCE + "\",\"dest-protocol\":\"amqp091\",\"dest-uri\":\"amqp://127.0.0.1:"
                    + targetPort + "\",\"dest-queue\":\"" + TARGET + "\",\"ack-mode\":\"on-confirm\"}";
            rabbitmqctl("set_parameter", "shovel", "fwd", definition);
        }

        @Override
        public long targetDepth() throws Exception {
            return targetChannel.queueDeclarePassive(TARGET).getMessageCount();
        }

        @Override
        public void stopForwarding() throws Exception {
            rabbitmqctl("clear_parameter", "shovel", "fwd");
        }

        private void rabbitmqctl(String... arguments) throws Exception {
            String[] command = new String[arguments.length + 3];
            command[0] = rabbitmqctl;
            command[1] = "-n";
            command[2] = sourceNode;
            System.arraycopy(arguments, 0, command, 3, arguments.length);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0) {
                throw new IllegalStateException("rabbitmqctl " + String.join(" ", arguments) + ": " + output);
            }
        }

        @Override
        public void close() throws Exception {
            sourceChannel.queuePurge(SOURCE);
            targetChannel.queuePurge(TARGET);
            source.close();
            target.close();
        }
    }

    /** An Artemis core bridge from the source broker's fwd.src to the target's fwd.dst. */
    private final class CoreBridge implements Forwarder {
        private final ServerLocator sourceLocator;
        private final ServerLocator targetLocator;
        private final ClientSessionFactory sourceFactory;
        private final ClientSessionFactory targetFactory;
        private final ClientSession source;
        private final ClientSession target;

        CoreBridge() throws Exception {
            sourceLocator = ActiveMQClient.createServerLocator("tcp://127.0.0.1:" + sourcePort);
            targetLocator = ActiveMQClient.createServerLocator("tcp://127.0.0.1:" + targetPort);
            sourceFactory = sourceLocator.createSessionFactory();
            targetFactory = targetLocator.createSessionFactory();
            source = sourceFactory.createSession();
            target = targetFactory.createSession();
            if (!target.queueQuery(SimpleString.toSimpleString(TARGET)).isExists()) {
                target.createQueue(new QueueConfiguration(TARGET).setRoutingType(RoutingType.ANYCAST).setDurable(true));
            }
            source.start();
            target.start();
            manage("stop");
        }

        /** Run a management operation on the bridge. */
        private void manage(String operation) throws Exception {
            ClientRequestor requestor = new ClientRequestor(source, "activemq.management");
            ClientMessage message = source.createMessage(false);
            ManagementHelper.putOperationInvocation(message, ResourceNames.BRIDGE + "fwd", operation);
            ClientMessage reply = requestor.request(message, 30_000);
            if (reply == null || !ManagementHelper.hasOperationSucceeded(reply)) {
                throw new IllegalStateException("bridge " + operation + " failed");
            }
            requestor.close();
        }

        @Override
        public void preload(long count, int size, boolean persistent) throws Exception {
            ClientSession session = sourceFactory.createSession(false, false, false);
            ClientProducer producer = session.createProducer(SOURCE);
            byte[] body = new byte[size];
            for (long i = 1; i <= count; i++) {
                ClientMessage message = session.createMessage(persistent);
                message.getBodyBuffer().writeBytes(body);
                producer.send(message);
                if (i % 100 == 0 || i == count) {
                    session.commit();
                }
            }
            session.close();
        }

        @Override
        public void startForwarding() throws Exception {
            manage("start");
        }

        @Override
        public long targetDepth() throws Exception {
            return target.queueQuery(SimpleString.toSimpleString(TARGET)).getMessageCount();
        }

        @Override
        public void stopForwarding() throws Exception {
            manage("stop");
        }

        @Override
        public void close() throws Exception {
            ClientRequestor requestor = new ClientRequestor(source, "activemq.management");
            ClientMessage message = source.createMessage(false);
            ManagementHelper.putOperationInvocation(message, ResourceNames.QUEUE + SOURCE, "removeAllMessages");
            requestor.request(message, 60_000);
            requestor.close();
            ClientSession session = targetFactory.createSession();
            session.deleteQueue(TARGET);
            session.close();
            source.close();
            target.close();
            sourceFactory.close();
            targetFactory.close();
            sourceLocator.close();
            targetLocator.close();
        }
    }
}
