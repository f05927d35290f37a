// Creates the database named in DATABASE_URL when the server has none of that name, so `npm test` works on a
// PostgreSQL with only its default databases (connects to the server's `postgres` database to do it).
const { Client } = require('pg');

async function main() {
  const url = new URL(process.env.DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      console.log(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.error(`cannot reach PostgreSQL at ${process.env.DATABASE_URL}: ${error.message}`);
  process.exit(1);
});
