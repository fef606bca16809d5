process.env.GATEHOUSE_TEST_DB = 'sqlite';
