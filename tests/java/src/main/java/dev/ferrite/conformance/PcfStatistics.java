package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQGetMessageOptions;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.constants.CMQCFC;
import com.ibm.mq.headers.pcf.MQCFGR;
import com.ibm.mq.headers.pcf.PCFMessage;
import com.ibm.mq.headers.pcf.PCFParameter;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.Hashtable;
import java.util.List;

/**
 * IBM's PCF classes reading a Ferrite queue manager's statistics and accounting messages
 * (SYSTEM.ADMIN.STATISTICS.QUEUE, SYSTEM.ADMIN.ACCOUNTING.QUEUE), as amqsmon or any
 * monitoring tool built on com.ibm.mq.headers.pcf.PCFMessage reads them: every message parsed,
 * its MQCFH checked (MQCFT_STATISTICS or MQCFT_ACCOUNTING, MQCC_OK, a MsgSeqNumber),
 * and each message's parameters printed one per line, groups by their members, as
 * `COMMAND NAME=value` lines the Rust test compares with the work it did. Arguments: queue
 * manager name, host, port, channel.
 */
public final class PcfStatistics {
    private final String qmgrName;
    private final Hashtable<String, Object> properties = new Hashtable<>();

    private PcfStatistics(String[] args) {
        qmgrName = args[0];
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new PcfStatistics(args).run());
    }

    /** Every message on `queue`, parsed with PCFMessage. */
    private static List<PCFMessage> drain(MQQueueManager qmgr, String queue) throws Exception {
        List<PCFMessage> messages = new ArrayList<>();
        MQQueue input = qmgr.accessQueue(queue, CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_FAIL_IF_QUIESCING);
        try {
            while (true) {
                MQMessage message = new MQMessage();
                MQGetMessageOptions gmo = new MQGetMessageOptions();
                gmo.options = CMQC.MQGMO_NO_SYNCPOINT;
                try {
                    input.get(message, gmo);
                } catch (MQException done) {
                    equal(CMQC.MQRC_NO_MSG_AVAILABLE, done.reasonCode, "end of " + queue);
                    return messages;
                }
                equal(CMQC.MQFMT_ADMIN, message.format, "format");
                messages.add(new PCFMessage(message));
            }
        } finally {
            input.close();
        }
    }

    /** The command's name as the report lines give it. */
    private static String command(int command) {
        switch (command) {
            case CMQCFC.MQCMD_STATISTICS_MQI: return "STATISTICS_MQI";
            case CMQCFC.MQCMD_STATISTICS_Q: return "STATISTICS_Q";
            case CMQCFC.MQCMD_STATISTICS_CHANNEL: return "STATISTICS_CHANNEL";
            case CMQCFC.MQCMD_ACCOUNTING_MQI: return "ACCOUNTING_MQI";
            case CMQCFC.MQCMD_ACCOUNTING_Q: return "ACCOUNTING_Q";
            default: return "COMMAND_" + command;
        }
    }

    /** Prints `parameters` as `prefix NAME=value` lines, groups' members prefixed by the group. */
    private static void print(String prefix, Enumeration<?> parameters) {
        while (parameters.hasMoreElements()) {
            PCFParameter parameter = (PCFParameter) parameters.nextElement();
            if (parameter instanceof MQCFGR) {
                String group = prefix + " " + parameter.getParameterName();
                print(group, ((MQCFGR) parameter).getParameters());
                System.out.println(group + " END");
                continue;
            }
            Object value = parameter.getValue();
            String text;
            if (value instanceof int[]) {
                text = java.util.Arrays.toString((int[]) value);
            } else if (value instanceof long[]) {
                text = java.util.Arrays.toString((long[]) value);
            } else {
                text = String.valueOf(value).trim();
            }
            System.out.println(prefix + " " + parameter.getParameterName() + "=" + text);
        }
    }

    private static void checkAndPrint(PCFMessage message, int type) {
        equal(type, message.getType(), "MQCFH Type");
        equal(CMQC.MQCC_OK, message.getCompCode(), "CompCode");
        require(message.getMsgSeqNumber() >= 1, "MsgSeqNumber");
        print(command(message.getCommand()), message.getParameters());
    }

    private int run() throws Exception {
        Checks checks = new Checks();
        MQQueueManager qmgr = new MQQueueManager(qmgrName, properties);
        try {
            checks.check("statistics messages parse", () -> {
                List<PCFMessage> messages = drain(qmgr, "SYSTEM.ADMIN.STATISTICS.QUEUE");
                require(messages.size() >= 3, "statistics messages: " + messages.size());
                for (PCFMessage message : messages) {
                    checkAndPrint(message, CMQCFC.MQCFT_STATISTICS);
                    equal(qmgrName,
                            message.getStringParameterValue(CMQC.MQCA_Q_MGR_NAME).trim(),
                            "QueueManager");
                }
            });
            checks.check("accounting messages parse", () -> {
                List<PCFMessage> messages = drain(qmgr, "SYSTEM.ADMIN.ACCOUNTING.QUEUE");
                require(messages.size() >= 2, "accounting messages: " + messages.size());
                for (PCFMessage message : messages) {
                    checkAndPrint(message, CMQCFC.MQCFT_ACCOUNTING);
                }
            });
        } finally {
            qmgr.disconnect();
        }
        return checks.finish();
    }
}
